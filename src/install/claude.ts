/**
 * Claude Code entries (spec 9.5). Claude runs `command` through `sh -c` (Git Bash on Windows): no `commandWindows`.
 * Beyond the spec's table, for what 2.1.3xx really does (real-harnesses §1): the plan tools `TaskCreate` and
 * `TaskUpdate` in the matcher (`Task` also catches the renamed `Agent`), and `SessionEnd`, which closes the hooks
 * session as on Codex and Antigravity.
 */
import { posixCommand } from "./commands.ts";
import type { GenerateOptions, HandlerSpec } from "./types.ts";

export const CLAUDE_LABEL = "Claude Code";

export function claudeHandlers(options: GenerateOptions): HandlerSpec[] {
  const emit = posixCommand("telemetry", options.agent, "claude");
  const specs: HandlerSpec[] = [];
  if (options.guard) {
    specs.push({ event: "PreToolUse", matcher: "Write|Edit|MultiEdit|NotebookEdit", command: posixCommand("guard", options.guardAgent, "claude") });
  }
  specs.push(
    { event: "PostToolUse", matcher: "Write|Edit|MultiEdit", command: emit },
    { event: "PostToolUse", matcher: "Bash", command: emit },
    { event: "PostToolUse", matcher: "Task|TodoWrite|TaskCreate|TaskUpdate|Skill", command: emit },
    { event: "PostToolUseFailure", matcher: "Bash", command: emit },
    { event: "UserPromptSubmit", command: emit },
    { event: "Stop", command: posixCommand("turnEnd", options.agent, "claude") },
    { event: "PreCompact", command: emit },
    { event: "SessionStart", matcher: "compact", command: posixCommand("checkpoint", options.agent, "claude") },
    { event: "SessionEnd", command: posixCommand("sessionEnd", options.agent, "claude") },
  );
  return [...specs, ...(options.extra ?? [])];
}
