/**
 * The one event shape every harness adapter produces. Nothing past the adapters knows about
 * snake_case vs camelCase, string vs object tool responses, command arrays or tool-name spellings.
 */
export type HarnessName = "claude" | "codex" | "antigravity" | "opencode" | "copilot" | "gemini";

/** One plan/todo item as the harness sent it (status not yet normalised). */
export type PlanItem = { text: string; status: string };

/** A tool call with its name mapped onto the canonical (Claude Code) spelling. */
export type ToolCall = {
  /** `Write`, `Edit`, `MultiEdit`, `NotebookEdit`, `apply_patch`, `Bash`, `Task`, `TodoWrite`, `update_plan`, `Skill`, `Read`, ... or the name as given. */
  name: string;
  filePath: string | null;
  /** Every file of a multi-file edit (Copilot `multi_replace_string_in_file`), first-occurrence order; null for one-file tools. */
  files: string[] | null;
  /** Shell command text (arrays already joined). */
  command: string | null;
  /** apply_patch text (Codex `command`/`input`/`patch`, OpenCode `patchText`). */
  patch: string | null;
  description: string | null;
  /** Sub-agent prompt of a Task call (never the user's prompt). */
  taskPrompt: string | null;
  subagentType: string | null;
  plan: PlanItem[] | null;
  skill: string | null;
};

/** What the tool answered, as far as the outcome rules need it. */
export type ToolResponse = {
  /** The output text: a string response, or the string output fields of an object joined by newlines. */
  text: string;
  /** A numeric exit code the harness reported in a structured field, else null. */
  exitCode: number | null;
  /** True when the harness sent an object (Claude/Antigravity send one for every successful Bash). */
  structured: boolean;
  interrupted: boolean;
};

/**
 * One change to a plan kept task by task (Claude Code's `TaskCreate` / `TaskUpdate` tools and `TaskCreated` event):
 * unlike a TodoWrite list it is a delta, folded into the session's plan when it is stored.
 */
export type TaskChange = {
  op: "create" | "update";
  /** The harness's task id (`"1"`, `"2"`…); null when a create did not report it. */
  id: string | null;
  subject: string | null;
  /** As sent: `pending`, `in_progress`, `completed`, `deleted`; null when the change leaves it. */
  status: string | null;
};

export type HookEvent = {
  harness: HarnessName;
  /** `hook_event_name` as sent (null when absent). */
  event: string | null;
  sessionId: string | null;
  cwd: string | null;
  transcriptPath: string | null;
  tool: ToolCall | null;
  response: ToolResponse | null;
  error: string | null;
  prompt: string | null;
  lastMessage: string | null;
  trigger: string | null;
  reason: string | null;
  /** SessionStart `source` (`compact` after a compaction). */
  startSource: string | null;
  /** A Stop that continues a turn another Stop hook blocked (`stop_hook_active: true`). */
  stopHookActive: boolean;
  taskChange: TaskChange | null;
  /**
   * What identifies one compaction when the harness reports the same one more than once (Gemini CLI: a digest of
   * the `<state_snapshot>` its requests carry after a compression); null = each report is its own compaction.
   */
  compactionKey?: string | null;
  /** How long the tool ran, in milliseconds, when the harness says (Claude Code's `duration_ms`); else null. */
  durationMs: number | null;
};

export type Adapter = (raw: Record<string, unknown>) => HookEvent;
