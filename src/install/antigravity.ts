/** Antigravity entries (spec 9.7): same content in the global and the workspace file; flat `Stop`/`SessionEnd`. */
import { posixCommand } from "./commands.ts";
import type { GenerateOptions, HandlerSpec } from "./types.ts";

export const ANTIGRAVITY_GLOBAL_LABEL = "Antigravity global";
export const ANTIGRAVITY_WORKSPACE_LABEL = "Antigravity workspace";

export function antigravityHandlers(options: GenerateOptions): HandlerSpec[] {
  const emit = posixCommand("telemetry", options.agent, "antigravity");
  const specs: HandlerSpec[] = [
    { event: "PostToolUse", matcher: "Write|Edit|MultiEdit", command: emit },
    { event: "PostToolUse", matcher: "Bash", command: emit },
    { event: "PostToolUse", matcher: "Task|TodoWrite", command: emit },
    { event: "Stop", command: posixCommand("turnEnd", options.agent, "antigravity"), flat: true },
    { event: "SessionEnd", command: posixCommand("sessionEnd", options.agent, "antigravity"), flat: true },
  ];
  return [...specs, ...(options.extra ?? [])];
}
