/**
 * GitHub Copilot agent hooks in VS Code (format and execution: src/kit/copilot.ts). Every handler is flat (VS Code
 * has no matcher level) with a `windows` override in cmd.exe syntax, and timeouts in seconds.
 *
 * Telemetry handlers and why:
 * - PostToolUse, UserPromptSubmit, PreCompact → hooks:emit (the matcher-less PostToolUse sees every tool; hooks:emit
 *   ignores the ones it does not record);
 * - Stop (end of the agent's turn, with `stop_hook_active`) → hooks:emit --then=agent:done, as Claude Code;
 * - no hooks:recap: Copilot's SessionStart fires for new sessions only (`source` is always "new") and nothing runs
 *   after a compaction, so there is no moment at which a checkpoint could be given back;
 * - no context:guard: it judges Claude Code's Write/Edit inputs only.
 */
import { posixCommand, windowsCommand, type CommandKind } from "./commands.ts";
import type { GenerateOptions, HandlerSpec } from "./types.ts";

export const COPILOT_LABEL = "GitHub Copilot (VS Code)";

export function copilotHandlers(options: GenerateOptions): HandlerSpec[] {
  const both = (kind: CommandKind) => ({
    command: posixCommand(kind, options.agent, "copilot"),
    windows: windowsCommand(kind, options.agent, "copilot"),
    flat: true,
  });
  const specs: HandlerSpec[] = [
    { event: "PostToolUse", ...both("telemetry") },
    { event: "UserPromptSubmit", ...both("telemetry") },
    { event: "Stop", ...both("turnEnd") },
    { event: "PreCompact", ...both("telemetry") },
  ];
  return [...specs, ...(options.extra ?? [])];
}
