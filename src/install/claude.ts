/**
 * Claude Code entries (spec 9.5). Claude runs `command` through `sh -c` (Git Bash on Windows): no `commandWindows`.
 * Beyond the spec's table, for what 2.1.3xx really does (real-harnesses §1): the plan tools `TaskCreate` and
 * `TaskUpdate` in the matcher (`Task` also catches the renamed `Agent`), and `SessionEnd`, which closes the hooks
 * session as on Codex and Antigravity.
 */
import { posixCommand, type CommandKind } from "./commands.ts";
import { HANDLER_TIMEOUT_SECONDS } from "./timeouts.ts";
import type { GenerateOptions, HandlerSpec } from "./types.ts";

export const CLAUDE_LABEL = "Claude Code";

export function claudeHandlers(options: GenerateOptions): HandlerSpec[] {
  // `timeout` in seconds (harness-protocols §1.10).
  const run = (kind: CommandKind, agent = options.agent) => ({ timeout: HANDLER_TIMEOUT_SECONDS[kind], command: posixCommand(kind, agent, "claude") });
  const specs: HandlerSpec[] = [];
  if (options.guard) specs.push({ event: "PreToolUse", matcher: "Write|Edit|MultiEdit|NotebookEdit", ...run("guard", options.guardAgent) });
  specs.push(
    { event: "PostToolUse", matcher: "Write|Edit|MultiEdit", ...run("telemetry") },
    { event: "PostToolUse", matcher: "Bash", ...run("telemetry") },
    { event: "PostToolUse", matcher: "Task|TodoWrite|TaskCreate|TaskUpdate|Skill", ...run("telemetry") },
    { event: "PostToolUseFailure", matcher: "Bash", ...run("telemetry") },
    { event: "UserPromptSubmit", ...run("telemetry") },
    { event: "Stop", ...run("turnEnd") },
    { event: "PreCompact", ...run("telemetry") },
    { event: "SessionStart", matcher: "compact", ...run("checkpoint") },
    { event: "SessionEnd", ...run("sessionEnd") },
  );
  return [...specs, ...(options.extra ?? [])];
}
