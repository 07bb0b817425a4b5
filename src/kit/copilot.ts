/**
 * GitHub Copilot agent hooks in VS Code: the workspace file `.github/hooks/<name>.json`.
 *
 * Format (https://code.visualstudio.com/docs/agent-customization/hooks and
 * https://code.visualstudio.com/docs/agents/reference/hooks-reference; microsoft/vscode-docs
 * `docs/agent-customization/hooks.md`, `docs/agents/reference/hooks-reference.md`):
 *   { "hooks": { "<Event>": [ { "type": "command", "command": "…", "windows": "…", "timeout": 30 } ] } }
 * - events: SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, PreCompact, SubagentStart, SubagentStop, Stop;
 * - one flat array of command objects per event: there is no matcher level (a PreToolUse hook sees every tool);
 * - `windows` / `linux` / `osx` override `command` per OS; `timeout` is in seconds (default 30);
 * - VS Code loads every `*.json` in `.github/hooks/` of the workspace.
 * This module is pure: it builds the object; the installer owns reading, merging and writing the file.
 */
import { guardCommandLine, guardCommandLineWindows, type CatalogEntry, type CommandOptions } from "./catalog.ts";

export const COPILOT_HOOKS_DIR = [".github", "hooks"] as const;
/** A file of our own, so install/uninstall never has to merge into a user's hook file. */
export const COPILOT_HOOKS_FILE = "aioson.json";

export type CopilotHandler = { type: "command"; command: string; windows?: string; linux?: string; osx?: string; cwd?: string; env?: Record<string, string>; timeout?: number };
export type CopilotHooksFile = { hooks: Record<string, CopilotHandler[]> };

export const COPILOT_EVENTS: readonly string[] = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PreCompact", "SubagentStart", "SubagentStop", "Stop"];

export function copilotHandler(entry: CatalogEntry, options: CommandOptions = {}): CopilotHandler {
  return {
    type: "command",
    command: guardCommandLine(entry, "copilot", options),
    windows: guardCommandLineWindows(entry, "copilot", options),
    timeout: entry.timeout,
  };
}

/** The hooks file for the chosen guards, events in VS Code's documented order, guards in catalogue order. */
export function copilotHooksConfig(entries: readonly CatalogEntry[], options: CommandOptions = {}): CopilotHooksFile {
  const hooks: Record<string, CopilotHandler[]> = {};
  for (const event of COPILOT_EVENTS) {
    for (const entry of entries) {
      if (entry.hooks.copilot?.event !== event) continue;
      (hooks[event] ??= []).push(copilotHandler(entry, options));
    }
  }
  return { hooks };
}

/** The file text as written (2-space JSON, trailing newline). */
export function copilotHooksText(entries: readonly CatalogEntry[], options: CommandOptions = {}): string {
  return `${JSON.stringify(copilotHooksConfig(entries, options), null, 2)}\n`;
}
