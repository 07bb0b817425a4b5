/** Spec 9.3 targets and 9.10 detection, from the environment (empty variables count as unset). */
import { existsSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { COPILOT_HOOKS_DIR, COPILOT_HOOKS_FILE } from "../kit/copilot.ts";
import type { ToolName } from "./types.ts";

export type Env = Readonly<Record<string, string | undefined>>;

/** An environment folder as an absolute path (Wine and some shells resolve relative paths badly); empty = unset. */
function envDir(env: Env, key: string): string | null {
  const value = env[key];
  return value === undefined || value.trim() === "" ? null : resolve(value);
}

export function homeDir(env: Env): string {
  return envDir(env, "HOME") ?? envDir(env, "USERPROFILE") ?? homedir();
}

export function claudeDir(env: Env): string {
  return envDir(env, "CLAUDE_CONFIG_DIR") ?? join(homeDir(env), ".claude");
}

export function codexDir(env: Env): string {
  return envDir(env, "CODEX_HOME") ?? join(homeDir(env), ".codex");
}

/** Gemini CLI's folder: `$GEMINI_CLI_HOME/.gemini` when set (its `homedir()` override), else `~/.gemini`. */
export function geminiDir(env: Env): string {
  return join(envDir(env, "GEMINI_CLI_HOME") ?? homeDir(env), ".gemini");
}

export function antigravityDir(env: Env): string {
  return join(homeDir(env), ".gemini", "antigravity");
}

export function opencodeDir(env: Env): string {
  const xdg = envDir(env, "XDG_CONFIG_HOME");
  return xdg ? join(xdg, "opencode") : join(homeDir(env), ".config", "opencode");
}

export const claudeSettingsPath = (env: Env) => join(claudeDir(env), "settings.json");
export const codexHooksPath = (env: Env) => join(codexDir(env), "hooks.json");
export const antigravityGlobalPath = (env: Env) => join(antigravityDir(env), "hooks.json");
export const antigravityWorkspacePath = (dir: string) => join(dir, ".agents", "hooks.json");
export const opencodePluginPath = (env: Env) => join(opencodeDir(env), "plugins", "aioson.js");
export const geminiSettingsPath = (env: Env) => join(geminiDir(env), "settings.json");
/** The workspace settings Gemini CLI layers over the user's (read by hooks:doctor only). */
export const geminiWorkspaceSettingsPath = (dir: string) => join(dir, ".gemini", "settings.json");
/** Copilot in VS Code reads the workspace's `.github/hooks/*.json`: our own file there. */
export const copilotHooksPath = (dir: string) => join(dir, ...COPILOT_HOOKS_DIR, COPILOT_HOOKS_FILE);
export const codexWrapperPath = (env: Env) => join(codexDir(env), "aioson-wrapper.sh");

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * `~/.gemini/` alone is no sign of Gemini CLI: Antigravity keeps its own folders in it. Gemini CLI is there when it
 * left one of its own files: `settings.json`, `oauth_creds.json` (Google login) or `projects.json` (the project
 * registry every run writes).
 */
export function geminiDetected(env: Env): boolean {
  const dir = geminiDir(env);
  return ["settings.json", "oauth_creds.json", "projects.json"].some((name) => isFile(join(dir, name)));
}

/** Spec 9.10: a tool is present when its directory exists; order claude, antigravity, codex, opencode, then gemini. */
export function detectTools(env: Env): ToolName[] {
  const dirs: [ToolName, string][] = [
    ["claude", claudeDir(env)],
    ["antigravity", antigravityDir(env)],
    ["codex", codexDir(env)],
    ["opencode", opencodeDir(env)],
  ];
  const found = dirs.filter(([, dir]) => isDir(dir)).map(([tool]) => tool);
  return geminiDetected(env) ? [...found, "gemini"] : found;
}

/**
 * Copilot is configured per workspace, so `--tool=all` includes it only when the workspace already has a
 * `.github/hooks/` folder: the file is committed and shared with the team, and VS Code being installed is not an
 * opt-in (VS Code also runs the hooks of `~/.claude/settings.json` by default).
 */
export function copilotDetected(dir: string): boolean {
  return isDir(join(dir, ...COPILOT_HOOKS_DIR));
}

/** Other places public sources say Antigravity/Gemini read hooks from (reported by hooks:doctor). */
export function antigravityKnownLocations(env: Env, dir: string): { path: string; ours: boolean; exists: boolean }[] {
  const home = homeDir(env);
  const list = [
    { path: antigravityGlobalPath(env), ours: true },
    { path: antigravityWorkspacePath(dir), ours: true },
    { path: join(home, ".gemini", "config", "hooks.json"), ours: false },
    { path: join(home, ".gemini", "settings.json"), ours: false },
  ];
  return list.map((entry) => ({ ...entry, exists: existsSync(entry.path) }));
}
