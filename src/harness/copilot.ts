/**
 * GitHub Copilot agent hooks in VS Code (`--source=copilot`; installed by src/install/copilot.ts, file format in
 * src/kit/copilot.ts). What arrives on stdin, checked against the sources:
 * - common fields: `timestamp` (ISO 8601), `cwd`, `transcript_path`, and the event and session as
 *   `hook_event_name`/`session_id` (current Copilot Chat) or `hookEventName`/`sessionId` (older builds and VS Code
 *   core's hooks service) — code.visualstudio.com/docs/agent-customization/hooks "Common input fields";
 *   microsoft/vscode-copilot-chat `src/extension/chat/vscode-node/chatHookService.ts` (`executeHook` builds
 *   `{timestamp, hook_event_name, session_id, transcript_path}`);
 * - PostToolUse (fires after a tool *completed*): `tool_name`, `tool_input` with the tool's own camelCase
 *   parameters, `tool_use_id`, and `tool_response` = the tool result as plain text, no exit code
 *   (docs/agents/reference/hooks-reference.md; chatHookService `executePostToolUseHook(…, toolResponseText, …)`);
 * - UserPromptSubmit `prompt`; Stop only `stop_hook_active` (the last message comes from the transcript,
 *   src/emit/transcript.ts); PreCompact `trigger: "auto"`.
 * Tool ids: vscode-copilot-chat `src/extension/tools/common/toolNames.ts` (plus the `copilot_*` names the same
 * tools are contributed under, and `editFiles`/`createFile`/`runTerminalCommand` from the VS Code docs' examples).
 * Inputs: `create_file {filePath, content}`, `replace_string_in_file {filePath, oldString, newString}`,
 * `multi_replace_string_in_file {replacements[{filePath, …}]}`, `insert_edit_into_file {filePath, code}`,
 * `edit_notebook_file {filePath, …}`, `apply_patch {input}` (Codex patch text); VS Code core
 * `runInTerminalTool.ts` `{command, explanation, goal, isBackground}` whose result text is the terminal output only
 * (the exit code stays in tool metadata), so a command's outcome comes from `Exit code:` lines or test summaries,
 * else unknown (spec 4.5 rules 3–6); `manageTodoListTool` `{operation?, todoList[{id, title, description?,
 * status: not-started|in-progress|completed}]}`; `runSubagentTool` `{prompt, description, agentName?}`.
 */
import * as v from "valibot";
import { eventFromEnvelope, firstText, mcpAsClaude, parseEnvelope, planItems } from "./common.ts";
import { agentTypeOf, changesTodos, copilotCliFacts, sessionTodos } from "./copilot-cli.ts";
import type { Adapter, HookEvent, ToolCall } from "./types.ts";

const TOOL_ALIASES: Readonly<Record<string, string>> = {
  create_file: "Write",
  copilot_createFile: "Write",
  createFile: "Write",
  replace_string_in_file: "Edit",
  copilot_replaceString: "Edit",
  multi_replace_string_in_file: "Edit",
  copilot_multiReplaceString: "Edit",
  insert_edit_into_file: "Edit",
  copilot_insertEdit: "Edit",
  editFiles: "Edit",
  edit_notebook_file: "NotebookEdit",
  copilot_editNotebook: "NotebookEdit",
  copilot_applyPatch: "apply_patch",
  run_in_terminal: "Bash",
  runTerminalCommand: "Bash",
  manage_todo_list: "TodoWrite",
  runSubagent: "Task",
  fetch_webpage: "WebFetch",
  copilot_fetchWebPage: "WebFetch",
  // Read-only: mapped onto the canonical read-only names so that they are ignored (spec 4.3).
  read_file: "Read",
  copilot_readFile: "Read",
  get_terminal_output: "Read",
  terminal_last_command: "Read",
  terminal_selection: "Read",
  get_task_output: "Read",
  get_errors: "Read",
  copilot_getErrors: "Read",
  get_changed_files: "Read",
  copilot_getChangedFiles: "Read",
  get_project_setup_info: "Read",
  get_doc_info: "Read",
  get_vscode_api: "Read",
  list_dir: "LS",
  copilot_listDirectory: "LS",
  read_project_structure: "LS",
  file_search: "Glob",
  copilot_findFiles: "Glob",
  test_search: "Glob",
  grep_search: "Grep",
  copilot_findTextInFiles: "Grep",
  semantic_search: "Grep",
  copilot_searchCodebase: "Grep",
  list_code_usages: "Grep",
  search_workspace_symbols: "Grep",
  get_search_view_results: "Grep",
  read_notebook_cell_output: "NotebookRead",
  copilot_getNotebookSummary: "NotebookRead",
  // Copilot CLI (src/harness/copilot-cli.ts): Claude names on its PascalCase events, its own ids on the camelCase ones.
  Agent: "Task",
  create: "Write",
  edit: "Edit",
  bash: "Bash",
  task: "Task",
  skill: "Skill",
  view: "Read",
  grep: "Grep",
  glob: "Glob",
  read_bash: "Read",
  list_bash: "Read",
  read_agent: "Read",
  list_agents: "Read",
  session_store_sql: "Read",
  fetch_copilot_cli_documentation: "Read",
};

/** VS Code tools that change something but map onto no canonical tool: recorded as notes, and known for the duplicate test. */
const OTHER_VSCODE_TOOLS: readonly string[] = [
  "create_directory", "runTests", "run_task", "create_and_run_task", "run_notebook_cell", "install_extension",
  "run_vscode_command", "memory", "open_simple_browser", "github_repo", "update_user_preferences",
  "create_new_workspace", "create_new_jupyter_notebook", "test_failure", "vscode_get_confirmation",
  "vscode_get_terminal_confirmation",
];

function buildExtrasSchema() {
  const text = v.fallback(v.optional(v.string()), undefined);
  const list = v.fallback(v.optional(v.array(v.unknown())), undefined);
  return v.object({ todoList: list, operation: text, agentName: text, replacements: list, files: list });
}
let extrasSchema: ReturnType<typeof buildExtrasSchema> | undefined;

/** The Copilot-only tool-input fields; the schema is built on first use so that startup stays free of it. */
function copilotExtras(raw: Record<string, unknown> | undefined): v.InferOutput<ReturnType<typeof buildExtrasSchema>> {
  if (!raw) return {};
  extrasSchema ??= buildExtrasSchema();
  const parsed = v.safeParse(extrasSchema, raw);
  return parsed.success ? parsed.output : {};
}

/** Distinct spellings kept; classify normalises them and records at most 50, so a hostile list stops early. */
const MAX_FILE_SPELLINGS = 200;

/** `replacements[].filePath` / `files[]` (strings or `{filePath}`), distinct, first-occurrence order. */
function distinctFiles(entries: readonly unknown[]): string[] {
  const files = new Set<string>();
  for (const entry of entries) {
    const record = entry !== null && typeof entry === "object" ? (entry as Record<string, unknown>) : null;
    const path = typeof entry === "string" ? entry : typeof record?.filePath === "string" ? record.filePath : null;
    if (path !== null && path.trim() !== "") files.add(path);
    if (files.size === MAX_FILE_SPELLINGS) break;
  }
  return [...files];
}

/** What the shared envelope parsing cannot know: multi-file edits, the todo list, the sub-agent name. */
function refineTool(tool: ToolCall, input: Record<string, unknown> | undefined): ToolCall {
  switch (tool.name) {
    case "Edit":
    case "Write": {
      const extras = copilotExtras(input);
      const files = distinctFiles([...(extras.replacements ?? []), ...(extras.files ?? [])]);
      return files.length === 0 ? tool : { ...tool, filePath: tool.filePath ?? (files[0] as string), files };
    }
    case "TodoWrite": {
      const extras = copilotExtras(input);
      // `operation: "read"` only shows the list: nothing changed, like Claude Code's TodoRead.
      if (extras.operation?.trim().toLowerCase() === "read") return { ...tool, name: "TodoRead", plan: null };
      return { ...tool, plan: tool.plan ?? planItems(extras.todoList) };
    }
    case "Task":
      return { ...tool, subagentType: tool.subagentType ?? firstText(copilotExtras(input).agentName) ?? agentTypeOf(input) };
    default:
      return tool;
  }
}

/** Copilot CLI's `sql` tool: a write to `todos` is a plan change (the plan read back from the session's database); any other query changes nothing. */
function sqlTool(tool: ToolCall, input: Record<string, unknown> | undefined, session: string | null): ToolCall {
  if (!changesTodos(input)) return { ...tool, name: "Read" };
  const plan = sessionTodos(session, process.env);
  return plan === null ? { ...tool, name: "Read" } : { ...tool, name: "TodoWrite", plan };
}

/** Copilot CLI's facts over the VS Code reading: tool results, the sub-agent's session and its stop. */
function withCliFacts(event: HookEvent, raw: Record<string, unknown>, input: Record<string, unknown> | undefined): HookEvent {
  const facts = copilotCliFacts(raw, event.tool?.name === "Bash");
  const sessionId = facts.parentSession ?? event.sessionId;
  const tool = event.tool?.name === "sql" ? sqlTool(event.tool, input, sessionId) : event.tool;
  // A sub-agent's Stop ends the sub-agent, not the turn; a result the CLI calls failed changed nothing.
  const name = event.event === "Stop" && facts.agentId ? "SubagentStop" : event.event === "PostToolUse" && facts.failed ? "PostToolUseFailure" : event.event;
  return { ...event, event: name, sessionId, tool, response: event.response ?? facts.response };
}

export const copilotAdapter: Adapter = (raw) => {
  const envelope = parseEnvelope(raw);
  const toolName = mcpAsClaude(firstText(envelope.tool_name, envelope.toolName)?.trim() ?? null);
  const input = envelope.tool_input ?? envelope.toolInput;
  const event = eventFromEnvelope(envelope, { harness: "copilot", toolAliases: TOOL_ALIASES, toolName });
  return withCliFacts(event.tool ? { ...event, tool: refineTool(event.tool, input) } : event, raw, input);
};

let vscodeToolIds: ReadonlySet<string> | undefined;
const ISO_TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/;
/** Copilot Chat keeps its transcripts in the extension's workspace storage: `…/GitHub.copilot-chat/transcripts/<id>.jsonl`. */
const COPILOT_STORAGE = /[\\/]github\.copilot-chat[\\/]/i;

/**
 * A payload VS Code sent for a Copilot session, recognised without the `--source` flag. VS Code also runs the
 * hooks of `~/.claude/settings.json` and `.claude/settings*.json` with matchers ignored (docs/agent-customization/
 * hooks.md, "How does VS Code handle Claude Code hook configurations?"), so Copilot's events reach the Claude
 * handlers too. The test needs VS Code's `timestamp` (ISO 8601; Claude Code's hook input has none), no Claude-only
 * `permission_mode`, and one positive VS Code mark: the camelCase envelope (`hookEventName`/`sessionId`), a VS Code
 * tool id (Claude Code's tools are PascalCase or `mcp__*`), a transcript in Copilot Chat's storage, or no
 * `transcript_path` at all (Claude Code sends one on every event; VS Code only when the session has a transcript).
 */
export function isCopilotPayload(raw: Record<string, unknown>): boolean {
  if (typeof raw.timestamp !== "string" || !ISO_TIMESTAMP.test(raw.timestamp) || "permission_mode" in raw) return false;
  if (typeof raw.hookEventName === "string" || typeof raw.sessionId === "string") return true;
  if (typeof raw.tool_name === "string") {
    vscodeToolIds ??= new Set([...Object.keys(TOOL_ALIASES), ...OTHER_VSCODE_TOOLS, "apply_patch"]);
    if (vscodeToolIds.has(raw.tool_name)) return true;
  }
  const transcript = raw.transcript_path;
  return transcript === undefined || (typeof transcript === "string" && COPILOT_STORAGE.test(transcript));
}
