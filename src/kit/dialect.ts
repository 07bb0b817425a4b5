import { asciiJson, contextAnswer } from "../harness/context.ts";

/**
 * One guard decision, spoken in each harness's dialect.
 *
 * Sources for the shapes:
 * - Claude Code: harness-protocols.md §1.7 (`hookSpecificOutput.permissionDecision`, Stop `decision:"block"`).
 * - Codex CLI: §2.8 — unknown keys reject the whole output, `allow` is valid only with `updatedInput`,
 *   and there is no `ask`.
 * - GitHub Copilot agent hooks in VS Code: https://code.visualstudio.com/docs/agents/reference/hooks-reference
 *   (microsoft/vscode-docs `docs/agents/reference/hooks-reference.md`): PreToolUse takes the Claude shape with
 *   allow/deny/ask; Stop blocks with `hookSpecificOutput: {hookEventName:"Stop", decision:"block", reason}`
 *   (SubagentStop with the top-level pair), so for Copilot both spellings are written. UserPromptSubmit is documented
 *   as "common output only", but VS Code's handler reads `hookSpecificOutput?.additionalContext ?? additionalContext`
 *   (microsoft/vscode `extensions/copilot/src/extension/prompt/node/` DefaultIntentRequestHandler), so the
 *   Claude shape injects context there too.
 * - OpenCode: §3.3/§3.8 — the plugin throws to block; the binary answers the shim's `{block, reason}` reply.
 * - Gemini CLI (real-harnesses §4): top-level `decision` (`deny`/`ask`) with `reason` — BeforeTool's deny reason
 *   reaches the model, AfterAgent's becomes the next prompt (the reasons of several denying hooks are joined);
 *   context as src/harness/context.ts writes it; Claude's `hookSpecificOutput.permissionDecision` is ignored there.
 */
export type Harness = "claude" | "codex" | "copilot" | "opencode" | "antigravity" | "gemini";
export const HARNESSES: readonly Harness[] = ["claude", "codex", "copilot", "opencode", "antigravity", "gemini"];

export type Permission = "allow" | "deny" | "ask";

export type Decision =
  | { kind: "pass" }
  /** The answer of a hook that must print an object even when it has no opinion (subagent-audit). */
  | { kind: "empty" }
  | { kind: "permission"; permission: Permission; reason: string }
  | { kind: "block"; reason: string }
  | { kind: "context"; text: string }
  /** Told to the person, not the model, and decides nothing (the universal `systemMessage`). */
  | { kind: "notice"; text: string };

export const PASS: Decision = { kind: "pass" };

/**
 * What Codex does with `ask`: Codex has no confirmation answer in PreToolUse, so `deny` keeps the promise that a
 * push or tag never runs without a person (the reason tells the agent to ask the user); `pass` hands the call to
 * Codex's own approval policy instead. Configurable per project (kit.json `pre-commit-guard.codexAsk`).
 */
export type AskFallback = "deny" | "pass";

export type RenderOptions = { codexAsk?: AskFallback };

const RANK: Record<Permission, number> = { allow: 0, ask: 1, deny: 2 };

/** deny > ask > allow: the most restrictive of several judgements wins. */
export function strictest(decisions: readonly { permission: Permission; reason: string }[]): { permission: Permission; reason: string } | null {
  let worst: { permission: Permission; reason: string } | null = null;
  for (const decision of decisions) if (!worst || RANK[decision.permission] > RANK[worst.permission]) worst = decision;
  return worst;
}

function normalizeHarness(value: string): string {
  return value.trim().replace(/^['"`]+|['"`]+$/g, "").trim().toLowerCase();
}

const ALIASES: Readonly<Record<string, Harness>> = {
  claude: "claude", "claude-code": "claude", claudecode: "claude",
  codex: "codex", "codex-cli": "codex",
  copilot: "copilot", vscode: "copilot", "github-copilot": "copilot", "vscode-copilot": "copilot",
  opencode: "opencode",
  antigravity: "antigravity",
  gemini: "gemini", "gemini-cli": "gemini",
};

/** Gemini CLI's own event names (no other harness sends them). */
const GEMINI_EVENTS = /^(BeforeTool|AfterTool|BeforeAgent|AfterAgent|BeforeModel|AfterModel|BeforeToolSelection|PreCompress)$/;

const COPILOT_TOOLS = /^(run_in_terminal|read_file|create_file|replace_string_in_file|multi_replace_string_in_file|insert_edit_into_file|apply_patch|editFiles|grep_search|file_search|semantic_search|list_dir|get_terminal_output|runSubagent)$/;
const CODEX_TOOLS = /^(shell|exec_command|local_shell|apply_patch|update_plan|unified_exec)$/;

/**
 * The harness: the `--tool`/`--source` flag when it names one, else the payload's shape (Copilot sends camelCase
 * `hookEventName`/`sessionId` and a `timestamp`; Codex adds `turn_id`), else Claude Code.
 */
export function detectHarness(flag: unknown, payload: Record<string, unknown> | null): Harness {
  if (typeof flag === "string" && flag.trim()) {
    const named = ALIASES[normalizeHarness(flag)];
    if (named) return named;
  }
  if (!payload) return "claude";
  if (typeof payload.hook_event_name === "string" && GEMINI_EVENTS.test(payload.hook_event_name)) return "gemini";
  const tool = typeof payload.tool_name === "string" ? payload.tool_name : typeof payload.toolName === "string" ? payload.toolName : "";
  if (tool && COPILOT_TOOLS.test(tool) && tool !== "apply_patch") return "copilot";
  if (typeof payload.hookEventName === "string" && typeof payload.hook_event_name !== "string") return "copilot";
  if (typeof payload.sessionId === "string" && typeof payload.timestamp === "string") return "copilot";
  if (typeof payload.turn_id === "string" || (tool && CODEX_TOOLS.test(tool))) return "codex";
  return "claude";
}

const CODEX_ASK_NOTE = "Codex cannot ask for confirmation from a hook: ask the user first; the user runs the command or approves it outside the agent.";

function permissionOutput(harness: Harness, permission: Permission, reason: string, options: RenderOptions): Record<string, unknown> | null {
  if (harness === "opencode") return permission === "allow" ? null : { block: true, reason };
  if (harness === "gemini") return permission === "allow" ? null : { decision: permission, reason };
  if (harness === "antigravity") return { decision: permission, reason };
  if (harness === "codex") {
    if (permission === "allow") return null;
    if (permission === "ask") {
      if ((options.codexAsk ?? "deny") === "pass") return null;
      return { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: `${reason} ${CODEX_ASK_NOTE}` } };
    }
  }
  return { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: permission, permissionDecisionReason: reason } };
}

function blockOutput(harness: Harness, event: string, reason: string): Record<string, unknown> {
  if (harness === "opencode") return { block: true, reason };
  if (harness === "gemini") return { decision: "deny", reason };
  if (harness === "copilot" && event === "Stop") return { decision: "block", reason, hookSpecificOutput: { hookEventName: "Stop", decision: "block", reason } };
  return { decision: "block", reason };
}

/** Events on which Claude Code and Codex accept `hookSpecificOutput.additionalContext`. */
const CONTEXT_EVENTS = new Set(["SessionStart", "UserPromptSubmit", "SubagentStart", "PreToolUse", "PostToolUse"]);

function contextOutput(harness: Harness, event: string, text: string): Record<string, unknown> {
  if (harness === "opencode") return { context: text };
  // PreCompact has no additionalContext anywhere: Claude Code and Codex reject the whole output when
  // `hookSpecificOutput` names PreCompact (anthropics/claude-code#46191, Yeachan-Heo/oh-my-codex#2217), while the
  // universal `systemMessage` is accepted by every harness there.
  if (!CONTEXT_EVENTS.has(event)) return { systemMessage: text };
  return { hookSpecificOutput: { hookEventName: event, additionalContext: text } };
}

/** The stdout text for a decision (null = print nothing, which every harness reads as "no opinion"). */
export function renderDecision(harness: Harness, event: string, decision: Decision, options: RenderOptions = {}): string | null {
  let output: Record<string, unknown> | null;
  switch (decision.kind) {
    case "pass":
      // Antigravity reads an empty PreToolUse answer as a deny on several builds (harness-protocols §6.4, §7 item 4).
      output = harness === "antigravity" && event === "PreToolUse" ? { decision: "allow" } : null;
      break;
    case "empty":
      output = {};
      break;
    case "permission":
      output = permissionOutput(harness, decision.permission, decision.reason, options);
      break;
    case "block":
      output = blockOutput(harness, event, decision.reason);
      break;
    case "context":
      if (!decision.text) return null;
      // Gemini and Copilot CLI read context in their own places (src/harness/context.ts); elsewhere Claude's shape.
      if (harness === "gemini" || (harness === "copilot" && CONTEXT_EVENTS.has(event))) {
        const answer = contextAnswer(harness, event, decision.text);
        if (answer !== null) return answer;
      }
      output = contextOutput(harness, event, decision.text);
      break;
    case "notice":
      output = harness === "opencode" ? null : { systemMessage: decision.text };
      break;
  }
  if (output === null) return null;
  return harness === "gemini" ? asciiJson(output) : JSON.stringify(output);
}
