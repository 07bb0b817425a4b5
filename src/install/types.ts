/** Shared vocabulary of the installer: harnesses, handler specs (data, not JSON) and per-tool results. */

/**
 * Spec 9.3 order, then Gemini CLI (`~/.gemini/settings.json`); `copilot` (GitHub Copilot in VS Code and Copilot CLI,
 * a workspace file) comes last.
 */
export const TOOLS = ["claude", "antigravity", "codex", "opencode", "gemini", "copilot"] as const;
export type ToolName = (typeof TOOLS)[number];

export function isToolName(value: string): value is ToolName {
  return (TOOLS as readonly string[]).includes(value);
}

/**
 * One hook handler as the installer means it, before it becomes a harness's JSON.
 * `timeout` is in the harness's own unit (seconds for Claude Code, Codex, Antigravity and VS Code, milliseconds for
 * Gemini CLI); `timeoutSec` is Copilot CLI's (seconds), which the Copilot file carries next to VS Code's `timeout`.
 * `flat` = written as a bare handler in the event array (Antigravity `Stop`/`SessionEnd`, every Copilot handler), not
 * inside a group.
 */
export type HandlerSpec = {
  event: string;
  matcher?: string;
  /** Gemini CLI's handler name (what `hooksConfig.disabled` lists and its hook panel shows). */
  name?: string;
  command: string;
  commandWindows?: string;
  /** VS Code's per-OS override key (Copilot hook files), written instead of `commandWindows`. */
  windows?: string;
  /** Copilot CLI's Windows key (run by PowerShell), next to VS Code's `windows`. */
  powershell?: string;
  timeout?: number;
  timeoutSec?: number;
  async?: boolean;
  statusMessage?: string;
  /** Variables the harness adds to the handler's environment (Gemini CLI, VS Code and Copilot CLI `env`). */
  env?: Readonly<Record<string, string>>;
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
