/** Shared vocabulary of the installer: harnesses, handler specs (data, not JSON) and per-tool results. */

export const TOOLS = ["claude", "antigravity", "codex", "opencode"] as const;
export type ToolName = (typeof TOOLS)[number];

export function isToolName(value: string): value is ToolName {
  return (TOOLS as readonly string[]).includes(value);
}

/**
 * One hook handler as the installer means it, before it becomes a harness's JSON.
 * `timeout` is in the harness's own unit (seconds for Claude Code and Codex).
 * `flat` = written as a bare handler in the event array (Antigravity `Stop`/`SessionEnd`), not inside a group.
 */
export type HandlerSpec = {
  event: string;
  matcher?: string;
  command: string;
  commandWindows?: string;
  timeout?: number;
  async?: boolean;
  statusMessage?: string;
  flat?: boolean;
};

/** What every adapter needs to generate its handlers. `extra` lets later features (guard hooks) add handlers. */
export type GenerateOptions = {
  agent: string;
  guardAgent: string;
  guard: boolean;
  extra?: readonly HandlerSpec[];
};

export type JsonObject = { [key: string]: unknown };
