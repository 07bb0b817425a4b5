/**
 * What hooks:doctor knows about Gemini CLI 0.61.0 (real-harnesses §4, from the pinned bundle): how it runs a handler
 * (`bash -c` on Unix, PowerShell on Windows, the handler's `env` merged in), the payloads it sends, and the two
 * switches that keep every hook from running: folder trust and `hooksConfig`.
 */
import { join, resolve, sep, win32 } from "node:path";
import { envValue, findProgram, windowsDir } from "../core/programs.ts";
import type { Issue } from "./doctor.ts";
import { isPlainObject } from "./merge.ts";
import * as paths from "./paths.ts";
import type { HandlerSpec } from "./types.ts";
import { readConfigFile, unsafeProjectPath, userConfig, type ConfigFile } from "./write.ts";

/**
 * `getShellConfiguration`: `bash -c` on Unix; PowerShell (`ComSpec` when it is one, else pwsh, else Windows
 * PowerShell) on Windows. Each found on PATH's absolute entries outside `project` (src/core/programs.ts), Windows
 * PowerShell in its own folder when it is not there: the doctor never starts a shell a project could have put there.
 */
export function geminiShell(command: string, env: paths.Env, project: string): string[] | null {
  if (process.platform !== "win32") {
    const bash = findProgram("bash", env, [project]);
    return bash ? [bash, "-c", command] : null;
  }
  const comSpec = envValue(env, "ComSpec") ?? "";
  const powershell = findProgram("powershell.exe", env, [project]) ?? win32.join(windowsDir(env), "System32", "WindowsPowerShell", "v1.0", "powershell.exe");
  const shell = /(?:powershell|pwsh)\.exe$/i.test(comSpec) && win32.isAbsolute(comSpec) ? comSpec : (findProgram("pwsh.exe", env, [project]) ?? powershell);
  return [shell, "-NoProfile", "-NonInteractive", "-Command", `${command}; if ($LASTEXITCODE -ne 0) { exit $LASTEXITCODE }`];
}

/** The environment a Gemini handler runs with: Gemini's variables plus the handler's `env`. */
export function geminiEnv(spec: HandlerSpec, project: string, sessionId: string): Record<string, string> {
  return { GEMINI_PROJECT_DIR: project, GEMINI_CWD: project, GEMINI_SESSION_ID: sessionId, CLAUDE_PROJECT_DIR: project, ...(spec.env ?? {}) };
}

/** A Gemini-shaped payload for one of the events aioson installs (one that records, where the handler records). */
export function geminiPayload(event: string, matcher: string | undefined, project: string, sessionId: string): Record<string, unknown> {
  const base = { session_id: sessionId, transcript_path: "", cwd: project, hook_event_name: event, timestamp: new Date().toISOString() };
  const file = join(project, "doctor-check.txt");
  switch (event) {
    case "BeforeTool":
      return (matcher ?? "").includes("run_shell_command")
        ? { ...base, tool_name: "run_shell_command", tool_input: { command: "echo aioson-doctor", description: "doctor" } }
        : { ...base, tool_name: "write_file", tool_input: { file_path: file, content: "doctor" } };
    case "AfterTool":
      return {
        ...base,
        tool_name: "write_file",
        tool_input: { file_path: file, content: "doctor" },
        tool_response: { llmContent: `Successfully created and wrote to new file: ${file}.`, returnDisplay: { fileName: "doctor-check.txt", originalContent: "", newContent: "doctor", isNewFile: true } },
      };
    case "BeforeAgent":
      return { ...base, prompt: "/aioson:agent:dev aioson hooks:doctor check" };
    case "AfterAgent":
      return { ...base, prompt: "check", prompt_response: "aioson hooks:doctor check", stop_hook_active: false };
    case "BeforeModel":
      // A request after a compression: the only BeforeModel that records something.
      return { ...base, llm_request: { model: "gemini-2.5-flash", messages: [{ role: "user", content: `<state_snapshot>aioson hooks:doctor ${sessionId}</state_snapshot>` }] } };
    case "SessionStart":
      return { ...base, source: "startup" };
    case "SessionEnd":
      return { ...base, reason: "exit" };
    default:
      return base;
  }
}

type Trust = { trusted: boolean | null; why: string };

const TRUST_LEVELS = new Set(["TRUST_FOLDER", "TRUST_PARENT", "DO_NOT_TRUST"]);

function isInside(parent: string, child: string): boolean {
  const a = resolve(parent);
  const b = resolve(child);
  return b === a || b.startsWith(a.endsWith(sep) ? a : a + sep);
}

/** `checkPathTrust` of the pinned bundle, from the environment hooks:doctor sees and the trusted-folders file. */
function folderTrust(dir: string, env: paths.Env, settings: Record<string, unknown> | null): Trust {
  if (env.GEMINI_RESTRICTED_MODE === "true" || env.GEMINI_CLI_TRUST_WORKSPACE === "false") return { trusted: false, why: "GEMINI_CLI_TRUST_WORKSPACE=false (or GEMINI_RESTRICTED_MODE=true) is set" };
  if (env.GEMINI_CLI_TRUST_WORKSPACE === "true") return { trusted: true, why: "GEMINI_CLI_TRUST_WORKSPACE=true" };
  const security = isPlainObject(settings?.security) ? settings.security : null;
  if (isPlainObject(security?.folderTrust) && security.folderTrust.enabled === false) return { trusted: true, why: "security.folderTrust.enabled is false" };
  const file = env.GEMINI_CLI_TRUSTED_FOLDERS_PATH?.trim() || join(paths.geminiDir(env), "trustedFolders.json");
  const read = readConfigFile(userConfig(file));
  if (read.state !== "ok") return { trusted: null, why: read.state === "missing" ? `${file} does not list it` : `${file} could not be read` };
  let best: { length: number; level: string } | null = null;
  for (const [rule, level] of Object.entries(read.data)) {
    if (typeof level !== "string" || !TRUST_LEVELS.has(level)) continue;
    const effective = level === "TRUST_PARENT" ? resolve(rule, "..") : rule;
    if (isInside(effective, dir) && (best === null || rule.length > best.length)) best = { length: rule.length, level };
  }
  if (best === null) return { trusted: null, why: `${file} does not list it` };
  return best.level === "DO_NOT_TRUST" ? { trusted: false, why: `${file} marks it DO_NOT_TRUST` } : { trusted: true, why: `${file} trusts it` };
}

/** `hooksConfig` of one settings file: whether it switches hooks off, and which of our names it disables. */
function hooksConfig(data: Record<string, unknown> | null): { off: boolean; disabled: string[] } {
  const config = isPlainObject(data?.hooksConfig) ? data.hooksConfig : null;
  const disabled = Array.isArray(config?.disabled) ? config.disabled.filter((name): name is string => typeof name === "string" && name.startsWith("aioson")) : [];
  return { off: config?.enabled === false, disabled };
}

function settingsData(file: ConfigFile): Record<string, unknown> | null {
  if (file.project !== null && unsafeProjectPath(file.project, [file.path]) !== null) return null;
  const read = readConfigFile(file);
  return read.state === "ok" ? read.data : null;
}

/** Folder trust and `hooksConfig` (user settings, then the workspace's `.gemini/settings.json`, which wins). */
export function geminiSwitchIssues(dir: string, env: paths.Env): Issue[] {
  const issues: Issue[] = [];
  const user = settingsData(userConfig(paths.geminiSettingsPath(env)));
  const workspacePath = paths.geminiWorkspaceSettingsPath(dir);
  const workspace = settingsData({ path: workspacePath, project: dir });
  const trust = folderTrust(dir, env, user);
  if (trust.trusted === false) {
    issues.push({ code: "gemini_untrusted", severity: "error", tool: "gemini", message: `This folder is not trusted (${trust.why}): Gemini CLI skips every settings hook here, user-level ones included, and a -p run fails.`, fix: `Trust it: run gemini here and accept the trust prompt, or add {"${dir}": "TRUST_FOLDER"} to ~/.gemini/trustedFolders.json; automation: GEMINI_CLI_TRUST_WORKSPACE=true.` });
  } else if (trust.trusted === null) {
    issues.push({ code: "gemini_untrusted", severity: "warning", tool: "gemini", message: `Gemini CLI does not trust this folder yet (${trust.why}): until it does, it runs no settings hook here and a -p run fails.`, fix: `Trust it when Gemini asks, or add {"${dir}": "TRUST_FOLDER"} to ~/.gemini/trustedFolders.json; automation: GEMINI_CLI_TRUST_WORKSPACE=true.` });
  } else {
    issues.push({ code: "gemini_trusted", severity: "info", tool: "gemini", message: `Gemini CLI trusts this folder (${trust.why}).`, fix: "Nothing to do." });
  }
  for (const [where, data] of [[paths.geminiSettingsPath(env), user], [workspacePath, workspace]] as const) {
    const config = hooksConfig(data);
    if (config.off) issues.push({ code: "gemini_hooks_disabled", severity: "error", tool: "gemini", message: `${where} sets hooksConfig.enabled to false: Gemini CLI runs no hook at all.`, fix: `Remove "enabled": false from hooksConfig in ${where} (or set it to true).` });
    if (config.disabled.length > 0) issues.push({ code: "gemini_hooks_disabled", severity: "error", tool: "gemini", message: `${where} lists AIOSON hooks in hooksConfig.disabled (${config.disabled.join(", ")}): Gemini CLI skips them.`, fix: `Remove them from hooksConfig.disabled in ${where}.` });
  }
  return issues;
}
