/**
 * GitHub Copilot agent hooks in VS Code: the workspace file `.github/hooks/<name>.json`.
 *
 * Format (https://code.visualstudio.com/docs/agent-customization/hooks and
 * https://code.visualstudio.com/docs/agents/reference/hooks-reference; microsoft/vscode-docs
 * `docs/agent-customization/hooks.md`, `docs/agents/reference/hooks-reference.md`):
 *   { "hooks": { "<Event>": [ { "type": "command", "command": "…", "windows": "…", "timeout": 30 } ] } }
 * - events: SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, PreCompact, SubagentStart, SubagentStop, Stop;
 * - one flat array of command objects per event: there is no matcher level (a PreToolUse hook sees every tool;
 *   Claude-style `{matcher, hooks:[…]}` groups are accepted but their matcher is ignored);
 * - `windows` / `linux` / `osx` override `command` per OS; `timeout` is in seconds (default 30);
 * - the command runs with the workspace folder as cwd, through `/bin/sh -c` on macOS/Linux and `cmd.exe` on Windows
 *   (microsoft/vscode `src/vs/workbench/api/node/extHostHooksNode.ts`, `spawn(command, {shell: true})`);
 * - VS Code loads every `*.json` in `.github/hooks/` of the workspace (setting `chat.hookFilesLocations`);
 * - GitHub Copilot CLI reads the same files in a trusted folder (real-harnesses §5): it also takes `{matcher, hooks}`
 *   groups (the matcher a full-match regex, honoured), runs `command` (or `bash`) on Unix and `powershell` on Windows,
 *   and adds SessionEnd and PostToolUseFailure to the events.
 * The installer (`src/install/copilot.ts`) owns reading, merging and writing the file.
 */

export const COPILOT_HOOKS_DIR = [".github", "hooks"] as const;
/** A file of our own, so install/uninstall never has to merge into a user's hook file. */
export const COPILOT_HOOKS_FILE = "aioson.json";

export const COPILOT_EVENTS: readonly string[] = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PreCompact", "SubagentStart", "SubagentStop", "Stop"];
