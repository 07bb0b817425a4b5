/**
 * Antigravity entries (spec 9.7): same content in the global and the workspace file; flat `Stop`/`SessionEnd`.
 * `timeout` in seconds, as its third-party schemas write it (harness-protocols §4.2; none says what agy does on one).
 */
import { posixCommand, type CommandKind } from "./commands.ts";
import { HANDLER_TIMEOUT_SECONDS } from "./timeouts.ts";
import type { GenerateOptions, HandlerSpec } from "./types.ts";

export const ANTIGRAVITY_GLOBAL_LABEL = "Antigravity global";
export const ANTIGRAVITY_WORKSPACE_LABEL = "Antigravity workspace";

export function antigravityHandlers(options: GenerateOptions): HandlerSpec[] {
  const run = (kind: CommandKind) => ({ timeout: HANDLER_TIMEOUT_SECONDS[kind], command: posixCommand(kind, options.agent, "antigravity") });
  const specs: HandlerSpec[] = [
    { event: "PostToolUse", matcher: "Write|Edit|MultiEdit", ...run("telemetry") },
    { event: "PostToolUse", matcher: "Bash", ...run("telemetry") },
    { event: "PostToolUse", matcher: "Task|TodoWrite", ...run("telemetry") },
    { event: "Stop", ...run("turnEnd"), flat: true },
    { event: "SessionEnd", ...run("sessionEnd"), flat: true },
  ];
  return [...specs, ...(options.extra ?? [])];
}
