/**
 * GitHub Copilot agent hooks: `.github/hooks/aioson.json`, which VS Code and Copilot CLI both read (format and
 * execution: src/kit/copilot.ts). Every handler has the POSIX `command`, VS Code's `windows` override (cmd.exe) and
 * Copilot CLI's `powershell` form, and its timeout twice, in seconds: VS Code's hook reference documents `timeout`,
 * Copilot CLI's `timeoutSec` (both default to 30 s; neither names the other's key).
 *
 * Handlers and why:
 * - PostToolUse, PostToolUseFailure, UserPromptSubmit → hooks:emit (the matcher-less PostToolUse sees every tool;
 *   hooks:emit ignores the ones it does not record); after a PreCompact they also hand over the checkpoint, once
 *   (nothing runs after Copilot's compaction: src/emit/checkpoint.ts);
 * - Stop (end of the agent's turn, with `stop_hook_active`) → hooks:emit --then=agent:done, as Claude Code; Copilot CLI
 *   also sends every sub-agent's stop there (`agent_id` set), which ends no turn;
 * - PreCompact → hooks:emit (the marker; Copilot CLI may fire it more than once per compaction);
 * - SessionEnd → hooks:emit --event=SessionEnd (Copilot CLI; VS Code has no such event);
 * - PreToolUse (matcher `Write|Edit`, honoured by Copilot CLI, ignored by VS Code) → context:guard: both harnesses
 *   read its `hookSpecificOutput.additionalContext`;
 * - no hooks:recap: SessionStart never says it follows a compaction.
 */
import { COPILOT_HANDLER_ENV, posixCommand, powershellCommand, windowsCommand, type CommandKind } from "./commands.ts";
import { HANDLER_TIMEOUT_SECONDS } from "./timeouts.ts";
import type { GenerateOptions, HandlerSpec } from "./types.ts";

export const COPILOT_LABEL = "GitHub Copilot (VS Code, Copilot CLI)";

export const COPILOT_TRUST_LINE =
  "  ⚠ Copilot CLI runs a repository's hooks only in a trusted folder: in -p runs pass --trust-folder (or set COPILOT_ALLOW_ALL=true).";

/** One timeout in both harnesses' keys. */
export function copilotTimeouts(seconds: number): Pick<HandlerSpec, "timeout" | "timeoutSec"> {
  return { timeout: seconds, timeoutSec: seconds };
}

export function copilotHandlers(options: GenerateOptions): HandlerSpec[] {
  const forms = (kind: CommandKind, agent = options.agent) => ({
    ...copilotTimeouts(HANDLER_TIMEOUT_SECONDS[kind]),
    command: posixCommand(kind, agent, "copilot", "copilot"),
    windows: windowsCommand(kind, agent, "copilot", "copilot"),
    powershell: powershellCommand(kind, agent, "copilot", "copilot"),
    env: COPILOT_HANDLER_ENV,
  });
  const specs: HandlerSpec[] = [];
  if (options.guard) specs.push({ event: "PreToolUse", matcher: "Write|Edit", ...forms("guard", options.guardAgent) });
  specs.push(
    { event: "PostToolUse", ...forms("telemetry"), flat: true },
    { event: "PostToolUseFailure", ...forms("telemetry"), flat: true },
    { event: "UserPromptSubmit", ...forms("telemetry"), flat: true },
    { event: "Stop", ...forms("turnEnd"), flat: true },
    { event: "PreCompact", ...forms("telemetry"), flat: true },
    { event: "SessionEnd", ...forms("sessionEnd"), flat: true },
  );
  return [...specs, ...(options.extra ?? [])];
}
