/** Codex entries (spec 9.6): timeouts in seconds, async telemetry, a `commandWindows` form on every handler. */
import { posixCommand, windowsCommand, type CommandKind } from "./commands.ts";
import type { GenerateOptions, HandlerSpec } from "./types.ts";

export const CODEX_LABEL = "Codex";

export const CODEX_TRUST_LINE =
  "  ⚠ Codex runs a new or changed hook only after you trust it: open Codex and run /hooks once — one review covers every AIOSON hook this version changed (automation may pass --dangerously-bypass-hook-trust).";

export function codexHandlers(options: GenerateOptions): HandlerSpec[] {
  const both = (kind: CommandKind) => ({
    command: posixCommand(kind, options.agent, "codex"),
    commandWindows: windowsCommand(kind, options.agent, "codex"),
  });
  const specs: HandlerSpec[] = [
    { event: "PostToolUse", matcher: "apply_patch|Bash|update_plan", timeout: 30, async: true, ...both("telemetry") },
    { event: "UserPromptSubmit", timeout: 30, async: true, ...both("telemetry") },
    { event: "Stop", timeout: 30, async: true, ...both("telemetry") },
    { event: "PreCompact", timeout: 30, ...both("telemetry") },
    { event: "SessionStart", matcher: "compact", timeout: 30, statusMessage: "AIOSON: restoring the session checkpoint", ...both("checkpoint") },
    { event: "SessionEnd", timeout: 3, ...both("sessionEnd") },
  ];
  return [...specs, ...(options.extra ?? [])];
}
