/**
 * Codex entries (spec 9.6 as corrected by real-harnesses §2): timeouts in seconds, a `commandWindows` form on every
 * handler, and every handler synchronous. `codex exec` kills the `async: true` handlers still running when it exits,
 * about 30 ms after the last synchronous hook: a probe hook sleeping 0.3 s on UserPromptSubmit, PostToolUse and
 * Stop never finished in a short `codex exec` session, so an async Stop lost the agent's last message and an async
 * PostToolUse the session's last tool call. A synchronous aioson hook costs about 10 ms of the agent's time.
 * The timeouts are spec 9.6's, not src/install/timeouts.ts's: Codex's trust hash covers `timeout`, so a new value
 * would make every user review these hooks again for no gain (each is already bounded).
 */
import { codexWindowsCommand, posixCommand, type CommandKind } from "./commands.ts";
import type { GenerateOptions, HandlerSpec } from "./types.ts";

export const CODEX_LABEL = "Codex";

export const CODEX_TRUST_LINE =
  "  ⚠ Codex runs a new or changed hook only after you trust it: open Codex and run /hooks once — one review covers every AIOSON hook this version changed (automation may pass --dangerously-bypass-hook-trust).";

export function codexHandlers(options: GenerateOptions): HandlerSpec[] {
  const both = (kind: CommandKind) => ({
    command: posixCommand(kind, options.agent, "codex"),
    commandWindows: codexWindowsCommand(kind, options.agent),
  });
  const specs: HandlerSpec[] = [
    { event: "PostToolUse", matcher: "apply_patch|Bash|update_plan", timeout: 30, ...both("telemetry") },
    { event: "UserPromptSubmit", timeout: 30, ...both("telemetry") },
    { event: "Stop", timeout: 30, ...both("telemetry") },
    { event: "PreCompact", timeout: 30, ...both("telemetry") },
    { event: "SessionStart", matcher: "compact", timeout: 30, statusMessage: "AIOSON: restoring the session checkpoint", ...both("checkpoint") },
    { event: "SessionEnd", timeout: 3, ...both("sessionEnd") },
  ];
  return [...specs, ...(options.extra ?? [])];
}
