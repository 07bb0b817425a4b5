/**
 * `hooks:doctor`: for each harness, read the installed config and run each of our handlers exactly as the harness
 * would (its command string through its shell, a synthetic payload on stdin, inside a temporary project), then check
 * that the event landed. Every problem comes with a fix.
 */
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { comSpec, findProgram, NO_CURRENT_FOLDER_LOOKUP, relativePathEntries, systemCmd, trustedPath, userProgram, withTrustedPath } from "../core/programs.ts";
import { switchedOffNotice, withoutSwitch } from "../core/switch.ts";
import { VERSION } from "../core/version.ts";
import { closeStore, openStore } from "../store/db.ts";
import { installedAgentId } from "./agents.ts";
import { antigravityHandlers } from "./antigravity.ts";
import { claudeHandlers } from "./claude.ts";
import { codexHandlers } from "./codex.ts";
import { codexHookTrust, type HookTrust, type TrustState } from "./codex-trust.ts";
import { copilotHandlers } from "./copilot.ts";
import { geminiEnv, geminiPayload, geminiShell, geminiSwitchIssues } from "./doctor-gemini.ts";
import { geminiHandlers } from "./gemini.ts";
import { isOurCommand, subcommandOf, unwrapWindowsLine } from "./commands.ts";
import { keptGuardSpecs } from "./guards.ts";
import { allHandlers, handlerJson, installedAgents, isOurHandler, jsonEqual, specOf, type FoundHandler } from "./merge.ts";
import * as paths from "./paths.ts";
import { isOurPlugin, opencodePluginSource, pluginAgent, pluginGuards } from "./opencode-plugin.ts";
import { migrateStore } from "./project-init.ts";
import { printable } from "./printable.ts";
import type { HandlerSpec, ToolName } from "./types.ts";
import { readConfigFile, readConfigText, unsafeProjectPath, userConfig, type ConfigFile } from "./write.ts";

export type Severity = "error" | "warning" | "info";
export type Issue = { code: string; severity: Severity; tool?: string; message: string; fix: string };
/** One installed handler; `ok`: no problem found. An inspection (`probe: false`) runs nothing: exitCode and landed null, ms 0. */
export type HandlerCheck = { event: string; matcher?: string; command: string; exitCode: number | null; ms: number; landed: boolean | null; ok: boolean };
export type HarnessReport = { tool: string; path: string; installed: boolean; handlers: HandlerCheck[]; trust?: HookTrust[] };
export type DoctorResult = {
  ok: boolean;
  binary: { self: string; onPath: string[]; version: string };
  harnesses: HarnessReport[];
  antigravityLocations?: { path: string; exists: boolean; ours: boolean; hasAioson: boolean }[];
  issues: Issue[];
  exitCode: number;
};

/**
 * `probe: false` only reads and compares the installed configs: no handler is run, no probe project is made and no
 * other aioson binary is started (the dashboard's hook health, which must run nothing). `onStep` is told before each
 * thing that takes a while (a handler run, another binary asked its version), for a progress line.
 */
export type DoctorRequest = { dir: string; tool: string | undefined; env: paths.Env; slowMs: number; selfPath: string; probe?: boolean; onStep?: (label: string) => void };

const RUN_TIMEOUT_MS = 15_000;
const MAX_TIMEOUT_SECONDS = 600;
const LEGACY = new Set(["live:start", "agent:done"]);

/**
 * Every `aioson` executable on PATH, in PATH order (Windows: PATHEXT variants), from the absolute entries outside
 * `project` only: a relative entry (`.`, `bin`) or one inside the project names a folder of whatever repository the
 * doctor runs in, and the doctor runs what it finds (`--version`).
 */
export function aiosonOnPath(env: paths.Env, project: string): string[] {
  const names = process.platform === "win32" ? ["aioson.exe", "aioson.cmd", "aioson.bat", "aioson"] : ["aioson"];
  const found: string[] = [];
  for (const dir of trustedPath(env, [project]).split(delimiter).filter(Boolean)) {
    for (const name of names) {
      const candidate = join(dir, name);
      try {
        if (statSync(candidate).isFile() && !found.includes(candidate)) found.push(candidate);
      } catch {
        // not there
      }
    }
  }
  return found;
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** `<binary> --version`, run from the temp folder (never a project). */
function versionOf(binary: string, request: DoctorRequest): string | null {
  try {
    const result = Bun.spawnSync([binary, "--version"], { cwd: tmpdir(), env: probeEnv(request.env, request.dir, true), stdout: "pipe", stderr: "ignore", timeout: RUN_TIMEOUT_MS });
    return /aioson\s+(\S+)/.exec(result.stdout.toString())?.[1] ?? null;
  } catch {
    return null;
  }
}

/**
 * The environment of everything the doctor starts: PATH cut to its absolute entries outside the project `dir`, so
 * that no shell running a handler finds a program the repository ships either (path_unsafe_entries names what was
 * cut). `own`: a program the doctor runs for itself, not a harness's handler, which on Windows also looks nothing up
 * in its current folder.
 */
function probeEnv(env: paths.Env, dir: string, own = false): Record<string, string> {
  return { ...withTrustedPath(env, [dir]), ...(own && process.platform === "win32" ? NO_CURRENT_FOLDER_LOOKUP : {}) };
}

/** PATH entries through which a hook's shell could run a program the project ships. */
function unsafePathIssue(request: DoctorRequest): Issue[] {
  const outside = new Set(trustedPath(request.env, [request.dir]).split(delimiter));
  const entries = [
    ...relativePathEntries(request.env).map((entry) => (entry === "" ? "(empty)" : entry)),
    ...trustedPath(request.env).split(delimiter).filter((entry) => entry !== "" && !outside.has(entry)),
  ];
  if (entries.length === 0) return [];
  return [{
    code: "path_unsafe_entries", severity: "warning",
    message: `PATH holds entries that resolve inside the project a hook runs in: ${[...new Set(entries)].map(printable).join(", ")}. The harness's shell looks for \`aioson\` (and every other program) there too, so a repository could put its own there; hooks:doctor and the OpenCode plugin leave them out.`,
    fix: "Remove them from PATH, or replace them with absolute folders outside your projects.",
  }];
}

function binaryIssues(request: DoctorRequest): { issues: Issue[]; onPath: string[] } {
  const onPath = aiosonOnPath(request.env, request.dir);
  const issues: Issue[] = unsafePathIssue(request);
  const self = real(request.selfPath);
  if (onPath.length === 0) {
    issues.push({
      code: "binary_not_on_path", severity: "error",
      message: "`aioson` is not on the PATH the harnesses see: every hook runs `aioson …` and silently does nothing.",
      fix: `Put the binary on the PATH, e.g. ln -s ${self} /usr/local/bin/aioson (Windows: add its folder to the user PATH), then restart the harness.`,
    });
    return { issues, onPath };
  }
  const first = onPath[0] as string;
  const selfIndex = onPath.findIndex((p) => real(p) === self);
  if (selfIndex > 0) {
    issues.push({
      code: "different_binary_first", severity: "error",
      message: `A different aioson comes earlier on PATH: ${first} (this one is ${onPath[selfIndex]}).`,
      fix: `Remove or rename ${first}, or put ${onPath[selfIndex]}'s folder before it on PATH.`,
    });
  }
  // Asking the other binary its version runs it: an inspection only says which one the hooks run.
  if (real(first) !== self && request.probe === false) {
    issues.push({
      code: "other_binary_on_path", severity: "info",
      message: `The hooks run ${first}, not this binary (${self}).`,
      fix: "Run aioson hooks:doctor to check that both are the same version.",
    });
  } else if (real(first) !== self) {
    request.onStep?.(`asking ${first} its version`);
    const version = versionOf(first, request);
    if (version !== VERSION) {
      issues.push({
        code: "version_mismatch", severity: "error",
        message: `The aioson the hooks run (${first}) is version ${version ?? "unknown"}, this one is ${VERSION}.`,
        fix: `Update or replace ${first} so that both are ${VERSION}, then run: aioson hooks:install`,
      });
    }
  }
  return { issues, onPath };
}

function configFor(tool: ToolName, request: DoctorRequest): { tool: string; file: ConfigFile }[] {
  const workspace = (path: string): ConfigFile => ({ path, project: request.dir });
  if (tool === "claude") return [{ tool, file: userConfig(paths.claudeSettingsPath(request.env)) }];
  if (tool === "codex") return [{ tool, file: userConfig(paths.codexHooksPath(request.env)) }];
  if (tool === "antigravity") return [
    { tool: "antigravity global", file: userConfig(paths.antigravityGlobalPath(request.env)) },
    { tool: "antigravity workspace", file: workspace(paths.antigravityWorkspacePath(request.dir)) },
  ];
  if (tool === "copilot") return [{ tool, file: workspace(paths.copilotHooksPath(request.dir)) }];
  if (tool === "gemini") return [{ tool, file: userConfig(paths.geminiSettingsPath(request.env)) }];
  return [{ tool, file: userConfig(paths.opencodePluginPath(request.env)) }];
}

/** A harness-shaped payload for one event (Claude/Codex field names). */
export function syntheticPayload(event: string, matcher: string | undefined, project: string, sessionId: string): Record<string, unknown> {
  const base = { hook_event_name: event, session_id: sessionId, cwd: project, transcript_path: "" };
  const file = join(project, "doctor-check.txt");
  const tool = (matcher ?? "").split("|")[0] || "Write";
  switch (event) {
    case "PreToolUse":
      return { ...base, tool_name: "Write", tool_input: { file_path: file, content: "doctor" } };
    case "PostToolUse":
    case "PostToolUseFailure":
      if (tool === "Bash") return { ...base, tool_name: "Bash", tool_input: { command: "echo aioson-doctor" }, tool_response: { stdout: "aioson-doctor", stderr: "", exit_code: event === "PostToolUse" ? 0 : 1 }, ...(event === "PostToolUseFailure" ? { error: "exit 1" } : {}) };
      if (tool === "apply_patch") return { ...base, tool_name: "apply_patch", tool_input: { command: `*** Begin Patch\n*** Add File: doctor-check.txt\n+doctor\n*** End Patch` }, tool_response: "Success" };
      if (tool === "Task") return { ...base, tool_name: "Task", tool_input: { description: "aioson doctor check", prompt: "check" }, tool_response: {} };
      return { ...base, tool_name: tool, tool_input: { file_path: file, content: "doctor" }, tool_response: { success: true } };
    case "UserPromptSubmit":
      // Only an agent activation is recorded (a prompt's text never is).
      return { ...base, prompt: "/aioson:agent:dev aioson hooks:doctor check" };
    case "Stop":
      return { ...base, stop_hook_active: false, last_assistant_message: "aioson hooks:doctor check" };
    case "PreCompact":
      return { ...base, trigger: "manual", custom_instructions: "" };
    case "SessionStart":
      return { ...base, source: "compact" };
    case "SessionEnd":
      return { ...base, reason: "other" };
    default:
      return base;
  }
}

/**
 * A Copilot-in-VS-Code payload (microsoft/vscode `ChatHookService`: snake_case common fields plus `timestamp`, VS Code
 * tool names with camelCase inputs, `tool_response` as text). Copilot hooks have no matcher, so one tool per event.
 */
export function copilotPayload(event: string, project: string, sessionId: string): Record<string, unknown> {
  const base = { timestamp: new Date().toISOString(), hook_event_name: event, session_id: sessionId, cwd: project, transcript_path: "" };
  switch (event) {
    case "PreToolUse":
      return { ...base, tool_name: "run_in_terminal", tool_input: { command: "echo aioson-doctor", explanation: "doctor", isBackground: false }, tool_use_id: "doctor-1" };
    case "PostToolUse":
      return { ...base, tool_name: "create_file", tool_input: { filePath: join(project, "doctor-check.txt"), content: "doctor" }, tool_use_id: "doctor-1", tool_response: "File created" };
    case "UserPromptSubmit":
      return { ...base, prompt: "/aioson:agent:dev aioson hooks:doctor check" };
    case "Stop":
    case "SubagentStop":
      return { ...base, stop_hook_active: false };
    case "PostToolUseFailure":
      // Copilot CLI's failed shell call: recorded as a failed step.
      return { ...base, tool_name: "Bash", tool_input: { command: "echo aioson-doctor", description: "doctor" }, error: "aioson hooks:doctor check" };
    case "PreCompact":
      return { ...base, trigger: "auto" };
    case "SessionStart":
      return { ...base, source: "new" };
    case "SessionEnd":
      return { ...base, reason: "complete" };
    default:
      return base;
  }
}

/**
 * The events in the doctor's scratch store, read the way the product's own readers open it (openStore: busy timeout
 * set first). A SessionEnd handler run just before starts the detached `runtime:prune --auto`, whose first open may
 * hold the WAL's recovery lock for a moment: a handle without a busy timeout failed right there ("database is
 * locked").
 */
function countEvents(project: string): number {
  const store = openStore(project, { mustExist: true, readonly: true });
  if (store === null) return 0;
  try {
    const a = store.db.query("SELECT count(*) AS n FROM execution_events").get() as { n: number };
    const b = store.db.query("SELECT count(*) AS n FROM agent_events").get() as { n: number };
    return a.n + b.n;
  } finally {
    closeStore(store);
  }
}

/** A harness's shell for one handler: the argv, and whether the last argument is already quoted for cmd.exe. */
type Shell = { argv: string[]; verbatim: boolean };

/**
 * The harness's shell: POSIX `sh -c`. On Windows, Codex's handlers the way Codex 0.169 runs hooks (`pwsh`, else `powershell`,
 * `-NoProfile -Command <commandWindows>`; `cmd.exe /c` when neither is on PATH, see codexWindowsLine); a Copilot
 * `windows` line through `cmd.exe /d /s /c` (VS Code's `spawn(…, {shell: true})`); Git Bash for a POSIX-only command
 * (Claude Code runs hooks through Git Bash on Windows). Every shell by absolute path, found on PATH's absolute entries
 * outside the user's `project` (cmd.exe where Rust's Command and Node find it: System32, ComSpec).
 */
function harnessShell(tool: string, command: string, commandWindows: string | undefined, env: paths.Env, project: string): Shell {
  if (process.platform !== "win32") return { argv: ["/bin/sh", "-c", command], verbatim: false };
  if (tool === "codex" && commandWindows !== undefined) {
    const powershell = findProgram("pwsh", env, [project]) ?? findProgram("powershell", env, [project]);
    return { argv: powershell ? [powershell, "-NoProfile", "-Command", commandWindows] : [systemCmd(env), "/c", commandWindows], verbatim: false };
  }
  const bash = commandWindows === undefined ? findProgram("bash", env, [project]) : null;
  if (bash) return { argv: [bash, "-c", command], verbatim: false };
  return { argv: [comSpec(env), "/d", "/s", "/c", `"${commandWindows ?? command}"`], verbatim: true };
}

/** The handler without its error-silencing tail, as a person would type it in cmd.exe or a POSIX shell. */
function byHand(command: string, commandWindows: string | undefined): string {
  if (process.platform === "win32" && commandWindows !== undefined) return `echo {} | ${unwrapWindowsLine(commandWindows).replace(/ (2>nul )?& exit \/b 0$/, "")}`;
  return `echo '{}' | ${command.replace(/ (?:2>\/dev\/null \|\| true|2>\$null; exit 0)$/, "")}`;
}

/** A throwaway project for the probe runs (one per harness, like one session). */
function probeProject(): string {
  const project = realpathSync(mkdtempSync(join(tmpdir(), "aioson-doctor-")));
  mkdirSync(join(project, ".aioson"));
  writeFileSync(join(project, ".aioson", "config.md"), "# aioson hooks:doctor probe\n");
  migrateStore(project);
  return project;
}

/** The payload a harness sends for one event. */
function probePayload(tool: string, event: string, matcher: string | undefined, project: string, sessionId: string): Record<string, unknown> {
  if (tool === "copilot") return copilotPayload(event, project, sessionId);
  if (tool === "gemini") return geminiPayload(event, matcher, project, sessionId);
  return syntheticPayload(event, matcher, project, sessionId);
}

/** Runs the handler's shell; the exit code, or null when it timed out or could not start. */
function runShell(shell: Shell | null, project: string, env: Record<string, string>, payload: string): { exitCode: number | null; stdout: string } {
  if (!shell) return { exitCode: null, stdout: "" };
  try {
    const result = Bun.spawnSync(shell.argv, {
      cwd: project, env, stdin: new TextEncoder().encode(payload), stdout: "pipe", stderr: "pipe", timeout: RUN_TIMEOUT_MS, windowsVerbatimArguments: shell.verbatim,
    });
    return { exitCode: result.exitCode, stdout: result.stdout.toString() };
  } catch {
    return { exitCode: null, stdout: "" };
  }
}

/**
 * Runs one handler through the harness's shell in the probe `project` (the shells found outside the user's `dir`),
 * with the handler's `env`; `landed` only for hooks:emit (the others do not record).
 */
function runHandler(tool: string, project: string, spec: HandlerSpec, env: paths.Env, dir: string): HandlerCheck {
  const { command, event, matcher } = spec;
  // Copilot's per-OS key is `windows` (run by cmd.exe, like Codex's `commandWindows`).
  const commandWindows = spec.commandWindows ?? spec.windows;
  const before = countEvents(project);
  const sessionId = `aioson-doctor-${process.pid}`;
  const payload = JSON.stringify(probePayload(tool, event, matcher, project, sessionId));
  const gemini = tool === "gemini";
  const started = performance.now();
  const geminiArgv = gemini ? geminiShell(command, env, dir) : null;
  const shell: Shell | null = gemini ? (geminiArgv ? { argv: geminiArgv, verbatim: true } : null) : harnessShell(tool, command, commandWindows, env, dir);
  // The probe's Stop/SessionEnd must not start an OpenTelemetry export of the probe project to the user's collector.
  const result = runShell(shell, project, { ...probeEnv(env, dir), PWD: project, OTEL_SDK_DISABLED: "true", ...(spec.env ?? {}), ...(gemini ? geminiEnv(spec, project, sessionId) : {}) }, payload);
  const ms = Math.round(performance.now() - started);
  const exitCode = result.exitCode;
  const isEmit = subcommandOf(command) === "hooks:emit";
  const landed = isEmit ? countEvents(project) > before : null;
  let validOutput = true;
  const out = result.stdout.trim();
  if (out && !isEmit) {
    try {
      JSON.parse(out);
    } catch {
      validOutput = false;
    }
  }
  return { event, matcher, command, exitCode, ms, landed, ok: exitCode === 0 && landed !== false && validOutput };
}

/**
 * What this version would write for a harness, given what is installed: the same agents (validated like
 * `--agent`, an invalid one replaced by the default), the guard kept or not. `withGuards` adds the optional
 * guard:* hooks installed there, regenerated from the catalogue.
 */
function expectedSpecs(tool: string, hooks: unknown, withGuards: boolean): HandlerSpec[] {
  const raw = installedAgents(hooks);
  const harness = tool.split(" ")[0] as ToolName;
  const extra = withGuards ? keptGuardSpecs(harness, hooks).specs : [];
  const options = { agent: installedAgentId(raw.telemetry).id ?? "dev", guardAgent: installedAgentId(raw.guard).id ?? "auto", guard: raw.guard !== null, extra };
  if (harness === "claude") return claudeHandlers(options);
  if (harness === "codex") return codexHandlers(options);
  if (harness === "antigravity") return antigravityHandlers(options);
  if (harness === "copilot") return copilotHandlers(options);
  if (harness === "gemini") return geminiHandlers(options);
  return [];
}

/** The keys aioson writes in a handler; a handler with any other key (`bash`, `powershell`, `env`…) is not ours. */
const HANDLER_KEYS = new Set(["type", "name", "timeout", "timeoutSec", "async", "statusMessage", "command", "commandWindows", "windows", "powershell", "env"]);

/**
 * The spec whose exact command lines a found handler carries (same event, same matcher, same `command` and
 * Windows form, nothing but our keys), or null: only such a handler is ever run, and then from our own strings.
 */
function exactSpec(found: FoundHandler, expected: readonly HandlerSpec[]): HandlerSpec | null {
  const { handler } = found;
  if (handler.type !== "command" || Object.keys(handler).some((key) => !HANDLER_KEYS.has(key))) return null;
  return expected.find((spec) =>
    spec.event === found.event && spec.matcher === found.matcher && spec.command === handler.command && spec.commandWindows === handler.commandWindows && spec.windows === handler.windows && spec.powershell === handler.powershell &&
    spec.name === handler.name && jsonEqual(spec.env, handler.env)) ?? null;
}

/** Installed-vs-expected difference, as `event (matcher)` labels; guard:* hooks are optional and not compared. */
function driftFromCurrent(tool: string, hooks: unknown, found: readonly FoundHandler[]): { missing: string[]; unexpected: string[] } {
  const label = (spec: HandlerSpec) => handlerLabel(spec.event, spec.matcher);
  const core = found.filter(({ handler }) => !(subcommandOf(String(handler.command ?? "")) ?? "").startsWith("guard:"));
  const installed = core.map((f) => ({ spec: specOf(f), json: f.handler }));
  const expected = expectedSpecs(tool, hooks, false);
  const matches = (spec: HandlerSpec, item: { spec: HandlerSpec; json: unknown }) =>
    item.spec.event === spec.event && item.spec.matcher === spec.matcher && jsonEqual(item.json, handlerJson(spec));
  return {
    missing: expected.filter((spec) => !installed.some((item) => matches(spec, item))).map(label),
    unexpected: installed.filter((item) => !expected.some((spec) => matches(spec, item))).map((item) => label(item.spec)),
  };
}

const TRUST_FIX = "Open Codex and run /hooks once: one review trusts every AIOSON hook listed (automation: codex --dangerously-bypass-hook-trust).";

/** What Codex's trust records say about our hooks, one issue per state that makes Codex skip them. */
function trustIssues(path: string, trust: readonly HookTrust[]): Issue[] {
  const of = (state: TrustState) => trust.filter((hook) => hook.state === state);
  const labels = (hooks: readonly HookTrust[]) => hooks.map((hook) => handlerLabel(hook.event, hook.matcher)).join(", ");
  const issues: Issue[] = [];
  const modified = of("modified");
  if (modified.length > 0) {
    const stale = modified.map((hook) => `${handlerLabel(hook.event, hook.matcher)}: trusted ${printable(hook.trustedHash ?? "")}, now ${hook.currentHash}`).join("; ");
    issues.push({ code: "codex_trust_stale", severity: "warning", tool: "codex", message: `${modified.length} AIOSON hook(s) in ${path} changed since they were trusted, so Codex skips them (${stale}).`, fix: TRUST_FIX });
  }
  const untrusted = of("untrusted");
  if (untrusted.length > 0) {
    issues.push({ code: "codex_untrusted", severity: "warning", tool: "codex", message: `${untrusted.length} AIOSON hook(s) in ${path} have no recorded trust, so Codex skips them: ${labels(untrusted)}.`, fix: TRUST_FIX });
  }
  const disabled = of("disabled");
  if (disabled.length > 0) {
    issues.push({ code: "codex_hook_disabled", severity: "warning", tool: "codex", message: `${disabled.length} AIOSON hook(s) in ${path} are switched off in Codex: ${labels(disabled)}.`, fix: "Open Codex, run /hooks and enable them again." });
  }
  return issues;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : Math.round(((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2);
}

type Runnable = { found: FoundHandler; spec: HandlerSpec };

/** `event (matcher)` of a handler found in a file, safe to print (the file may be a hostile project's). */
function handlerLabel(event: string, matcher: string | undefined): string {
  return printable(`${event}${matcher ? ` (${matcher})` : ""}`);
}

/**
 * Runs the exact handlers of one harness in one probe project, in file order with SessionEnd last (it closes what
 * the others opened), collecting per-handler checks and issues. What runs is always aioson's own command line
 * (`spec`), never text taken from the file.
 */
function probeHandlers(tool: string, runnable: readonly Runnable[], request: DoctorRequest, issues: Issue[], report: HarnessReport): void {
  const ordered = [...runnable].sort((a, b) => Number(a.spec.event === "SessionEnd") - Number(b.spec.event === "SessionEnd"));
  let project: string | null = null;
  try {
    for (const { spec } of ordered) {
      if (request.probe === false) {
        report.handlers.push({ event: spec.event, matcher: spec.matcher, command: spec.command, exitCode: null, ms: 0, landed: null, ok: true });
        continue;
      }
      project ??= probeProject();
      request.onStep?.(`${tool} ${handlerLabel(spec.event, spec.matcher)}`);
      const check = runHandler(tool, project, spec, request.env, request.dir);
      report.handlers.push(check);
      if (!check.ok) {
        const what = check.landed === false ? "ran but no event landed in the store" : `exited with ${check.exitCode ?? "a timeout"}`;
        issues.push({ code: "event_not_landed", severity: "error", tool, message: `${handlerLabel(spec.event, spec.matcher)}: the handler ${what}.`, fix: `Run it by hand to see the error: ${byHand(spec.command, spec.commandWindows ?? spec.windows)}` });
      }
    }
  } finally {
    if (project) rmSync(project, { recursive: true, force: true });
  }
}

/** Sorts the aioson-looking handlers of a file: legacy ones, the exact ones this version writes, and the rest. */
function classify(tool: string, hooks: unknown): { legacy: FoundHandler[]; runnable: Runnable[]; foreign: FoundHandler[] } {
  const expected = expectedSpecs(tool, hooks, true);
  const sorted: ReturnType<typeof classify> = { legacy: [], runnable: [], foreign: [] };
  for (const found of allHandlers(hooks).filter(({ handler }) => isOurHandler(handler))) {
    const sub = typeof found.handler.command === "string" ? subcommandOf(found.handler.command) : null;
    const spec = exactSpec(found, expected);
    if (sub && LEGACY.has(sub)) sorted.legacy.push(found);
    else if (spec) sorted.runnable.push({ found, spec });
    else sorted.foreign.push(found);
  }
  return sorted;
}

function checkJsonHarness(tool: string, file: ConfigFile, request: DoctorRequest, issues: Issue[]): HarnessReport {
  const path = file.path;
  const report: HarnessReport = { tool, path, installed: false, handlers: [] };
  const reinstall = `aioson hooks:install --tool=${tool.split(" ")[0]}`;
  const unsafe = file.project === null ? null : unsafeProjectPath(file.project, [path]);
  if (unsafe) {
    issues.push({ code: "workspace_unsafe", severity: "error", tool, message: `${unsafe}: the harness follows it and runs whatever hooks are there; aioson neither reads nor writes a project file through a symlink.`, fix: `Look at where it points; replace it with a plain file (or delete it), then run: ${reinstall}` });
    return report;
  }
  const read = readConfigFile(file);
  if (read.state === "missing") return report;
  if (read.state === "invalid") {
    issues.push({ code: "config_invalid", severity: "error", tool, message: `${path} does not parse as JSON (a trailing comma?): the harness ignores it, so no hook runs.`, fix: `Fix the JSON syntax in ${path}, then run: ${reinstall}` });
    return report;
  }
  if (read.state === "unreadable" || read.state === "refused") {
    const why = read.state === "unreadable" ? `could not be read (${read.code})` : `is ${read.why}`;
    issues.push({ code: "config_unreadable", severity: "error", tool, message: `${path} ${why}.`, fix: `Check the file, then run: aioson hooks:doctor` });
    return report;
  }
  const { legacy, runnable, foreign } = classify(tool, read.data.hooks);
  report.installed = legacy.length + runnable.length + foreign.length > 0;
  // Gemini CLI reads milliseconds: its timeouts are meant to be large.
  for (const { event, handler } of tool === "gemini" ? [] : [...runnable.map((r) => r.found), ...foreign]) {
    if (typeof handler.timeout === "number" && handler.timeout > MAX_TIMEOUT_SECONDS) {
      issues.push({ code: "timeout_unit", severity: "error", tool, message: `${printable(event)}: timeout ${handler.timeout} looks like milliseconds; ${tool.split(" ")[0]} reads seconds, so the cap is effectively off.`, fix: reinstall });
    }
  }
  for (const { event, handler } of legacy) {
    const sub = subcommandOf(String(handler.command)) ?? "";
    issues.push({ code: "stale_handlers", severity: "error", tool, message: `${printable(event)}: \`${sub}\` was installed by an older version (it can create .aioson/ in any folder a session stops in).`, fix: reinstall });
  }
  if (foreign.length > 0) {
    const where = file.project === null ? "" : " This file belongs to the project: whoever committed it chose these commands.";
    issues.push({
      code: "foreign_handlers", severity: "error", tool,
      message: `${foreign.length} handler(s) in ${path} look like AIOSON's but are not the exact command lines this version of hooks:install writes, so they were not run: ${foreign.map((f) => handlerLabel(f.event, f.matcher)).join(", ")}.${where}`,
      fix: `Read them before the harness runs them; ${reinstall} replaces every \`aioson …\` handler there with the current ones.`,
    });
  }
  if (tool === "codex") report.trust = codexHookTrust([...new Set([path, real(path)])], read.data.hooks, request.env);
  probeHandlers(tool, runnable, request, issues, report);
  const ours = [...legacy, ...runnable.map((r) => r.found), ...foreign];
  const drift = report.installed ? driftFromCurrent(tool, read.data.hooks, ours) : { missing: [], unexpected: [] };
  if (drift.missing.length + drift.unexpected.length > 0 && !issues.some((i) => i.tool === tool && i.code === "stale_handlers")) {
    const parts = [drift.missing.length ? `missing ${drift.missing.join(", ")}` : "", drift.unexpected.length ? `not written by this version: ${drift.unexpected.join(", ")}` : ""].filter(Boolean);
    issues.push({ code: "stale_handlers", severity: "error", tool, message: `The AIOSON hooks in ${path} were written by another version (${parts.join("; ")}).`, fix: reinstall });
  }
  issues.push(...trustIssues(path, report.trust ?? []));
  const times = report.handlers.map((h) => h.ms);
  if (times.length > 0 && median(times) > request.slowMs) {
    issues.push({ code: "hooks_slow", severity: "warning", tool, message: `Median hook latency ${median(times)} ms (over ${request.slowMs} ms): every tool call waits for it.`, fix: "Check antivirus/real-time scanning of the binary and the project's .aioson/runtime; keep the binary on a local disk." });
  }
  return report;
}

/**
 * OpenCode: the plugin must be ours and current; its calls are then probed the way the plugin makes them (the binary
 * from AIOSON_BIN or PATH as the plugin finds it, spawned with an argument array, the payload on stdin; a Windows
 * `.cmd` shim the plugin starts through ComSpec, which Bun does by itself here).
 */
function checkPlugin(path: string, request: DoctorRequest, issues: Issue[]): HarnessReport {
  const report: HarnessReport = { tool: "opencode", path, installed: false, handlers: [] };
  const read = readConfigText(path);
  if (read.state === "missing") return report;
  if (read.state !== "ok") {
    issues.push({ code: "config_unreadable", severity: "error", tool: "opencode", message: `${path} ${read.state === "unreadable" ? `could not be read (${read.code})` : `is ${read.why}`}.`, fix: "Check the file, then run: aioson hooks:doctor" });
    return report;
  }
  const text = read.text;
  report.installed = isOurPlugin(text);
  if (!report.installed) {
    issues.push({ code: "plugin_foreign", severity: "warning", tool: "opencode", message: `${path} exists but was not written by AIOSON.`, fix: "Rename that plugin, then run: aioson hooks:install --tool=opencode" });
    return report;
  }
  const agent = installedAgentId(pluginAgent(text)).id ?? "dev";
  if (text !== opencodePluginSource(agent, pluginGuards(text))) {
    issues.push({ code: "stale_handlers", severity: "error", tool: "opencode", message: `${path} was written by another version of aioson.`, fix: "aioson hooks:install --tool=opencode, then restart OpenCode" });
  }
  if (request.probe === false) return report;
  const custom = (request.env.AIOSON_BIN ?? "").trim();
  const bin = custom ? custom.split(/\s+/) : ["aioson"];
  // As the plugin finds it (src/install/opencode-plugin.ts `locate`): a path relative to the project, or a name on PATH outside it.
  const program = userProgram(bin[0] as string, request.dir, request.env, [request.dir]);
  const project = probeProject();
  try {
    const before = countEvents(project);
    const payload = JSON.stringify({ ...syntheticPayload("PostToolUse", "Write", project, `aioson-doctor-${process.pid}`), cwd: project });
    request.onStep?.("opencode plugin's hooks:emit");
    const started = performance.now();
    let exitCode: number | null = null;
    try {
      if (program) {
        const result = Bun.spawnSync([program, ...bin.slice(1), "hooks:emit", project, `--agent=${agent}`, "--source=opencode"], {
          cwd: project, env: probeEnv(request.env, request.dir, true), stdin: new TextEncoder().encode(payload), stdout: "ignore", stderr: "ignore", timeout: RUN_TIMEOUT_MS,
        });
        exitCode = result.exitCode;
      }
    } catch {
      exitCode = null; // the binary could not be started at all
    }
    const landed = countEvents(project) > before;
    const check: HandlerCheck = { event: "tool.execute.after", command: `${bin.join(" ")} hooks:emit <root> --agent=${agent} --source=opencode`, exitCode, ms: Math.round(performance.now() - started), landed, ok: exitCode === 0 && landed };
    report.handlers.push(check);
    if (!check.ok) {
      issues.push({ code: "event_not_landed", severity: "error", tool: "opencode", message: `The plugin's call (${check.command}) ${exitCode === null ? "could not start" : landed ? `exited with ${exitCode}` : "recorded nothing"}.`, fix: custom ? "Check AIOSON_BIN (a command without spaces in its path) in OpenCode's environment." : "Put aioson on OpenCode's PATH, or set AIOSON_BIN in its environment." });
    }
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
  return report;
}

function antigravityLocations(request: DoctorRequest, issues: Issue[]): DoctorResult["antigravityLocations"] {
  const list = paths.antigravityKnownLocations(request.env, request.dir).map((loc) => {
    let hasAioson = false;
    // The workspace file is a project path: never read through a symlink.
    const project = loc.path === paths.antigravityWorkspacePath(request.dir) ? request.dir : null;
    const unsafe = project !== null && unsafeProjectPath(project, [loc.path]) !== null;
    const read = loc.exists && !unsafe ? readConfigFile({ path: loc.path, project }) : null;
    if (read && read.state === "ok") hasAioson = allHandlers(read.data.hooks).some(({ handler }) => isOurCommand(handler.command));
    return { ...loc, hasAioson };
  });
  for (const loc of list) {
    // Gemini CLI's own settings: Antigravity's hooks copied there would be Claude-named events Gemini rejects.
    if (loc.path === paths.geminiSettingsPath(request.env)) continue;
    if (!loc.ours && loc.exists && !loc.hasAioson) {
      issues.push({ code: "antigravity_other_location", severity: "warning", tool: "antigravity", message: `${loc.path} exists: some Antigravity builds read hooks there, and it has no AIOSON hooks.`, fix: `If your Antigravity build reads ${loc.path}, copy the "hooks" of ${paths.antigravityGlobalPath(request.env)} into it.` });
    }
  }
  return list;
}

/**
 * Copilot CLI reads a repository's `.github/hooks` only in a trusted folder; in `-p` mode the trust prompt cannot be
 * answered (real-harnesses §5): `--trust-folder`, `COPILOT_ALLOW_ALL=true` or `GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true`.
 */
function copilotTrustIssue(env: paths.Env): Issue {
  const allowed = env.COPILOT_ALLOW_ALL === "true" || env.GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS === "true";
  return allowed
    ? { code: "copilot_cli_trust", severity: "info", tool: "copilot", message: "Copilot CLI loads this repository's hooks in -p runs here (COPILOT_ALLOW_ALL or GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS is set).", fix: "Nothing to do." }
    : { code: "copilot_cli_trust", severity: "info", tool: "copilot", message: "Copilot CLI runs .github/hooks only in a trusted folder: interactive sessions ask once; a -p run loads none of them unless the folder is trusted for it.", fix: "In -p runs pass --trust-folder, or set COPILOT_ALLOW_ALL=true (GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true loads the repository's hooks only)." };
}

/**
 * The kill switch set where the doctor runs: reported, and taken out of the environment the handlers are run with, so
 * that they are checked as they work once it is unset (with it, every handler would answer its no-op and record nothing).
 */
function switchIssue(env: paths.Env): Issue | null {
  const notice = switchedOffNotice(env);
  if (!notice) return null;
  return {
    code: "hooks_switched_off", severity: "warning",
    message: `${notice} in this environment (the handlers below were run without it). A harness started from here keeps it.`,
    fix: "Unset it to switch the hooks back on — unset AIOSON (PowerShell: Remove-Item Env:AIOSON) — then restart the harness.",
  };
}

export function runDoctor(input: DoctorRequest): DoctorResult {
  const switched = switchIssue(input.env);
  const request: DoctorRequest = switched ? { ...input, env: withoutSwitch(input.env) } : input;
  const issues: Issue[] = switched ? [switched] : [];
  const binary = binaryIssues(request);
  issues.push(...binary.issues);
  // Copilot's file is per workspace: checked when asked for, or when the workspace has one.
  // Gemini's settings: checked when they are there.
  const everything: ToolName[] = [
    "claude", "antigravity", "codex", "opencode",
    ...(existsSync(paths.geminiSettingsPath(request.env)) ? (["gemini"] as const) : []),
    ...(existsSync(paths.copilotHooksPath(request.dir)) ? (["copilot"] as const) : []),
  ];
  const listed = request.tool && request.tool !== "all" ? (request.tool.split(",").map((t) => t.trim().toLowerCase()) as ToolName[]) : everything;
  const present = new Set(paths.detectTools(request.env));
  const harnesses: HarnessReport[] = [];
  let locations: DoctorResult["antigravityLocations"];
  for (const tool of listed) {
    if (!["claude", "antigravity", "codex", "opencode", "gemini", "copilot"].includes(tool)) continue;
    for (const { tool: label, file } of configFor(tool, request)) {
      const report = tool === "opencode" ? checkPlugin(file.path, request, issues) : checkJsonHarness(label, file, request, issues);
      harnesses.push(report);
    }
    if (tool === "antigravity") locations = antigravityLocations(request, issues);
    if (tool === "gemini" && harnesses.some((h) => h.tool === "gemini" && h.installed)) issues.push(...geminiSwitchIssues(request.dir, request.env));
    if (tool === "copilot" && harnesses.some((h) => h.tool === "copilot" && h.installed)) issues.push(copilotTrustIssue(request.env));
    const installed = harnesses.some((h) => h.tool.startsWith(tool) && h.installed);
    if (present.has(tool) && !installed && !issues.some((i) => i.tool?.startsWith(tool) && i.code.startsWith("config_"))) {
      issues.push({ code: "not_installed", severity: "warning", tool, message: `${tool} is on this machine but has no AIOSON hooks.`, fix: `aioson hooks:install --tool=${tool}` });
    }
  }
  const broken = issues.some((i) => i.severity === "error");
  return {
    ok: !broken,
    binary: { self: request.selfPath, onPath: binary.onPath, version: VERSION },
    harnesses,
    ...(locations ? { antigravityLocations: locations } : {}),
    issues,
    exitCode: broken ? 1 : 0,
  };
}

/** What the installed configs say, running nothing (see DoctorRequest `probe`). */
export function inspectInstalledHooks(dir: string, env: paths.Env): DoctorResult {
  return runDoctor({ dir, tool: undefined, env, slowMs: Number.POSITIVE_INFINITY, selfPath: process.execPath, probe: false });
}

export function doctorLines(result: DoctorResult): string[] {
  const lines = ["Hooks Doctor", "─".repeat(50), `  binary: ${result.binary.self} (${result.binary.version}); aioson on PATH: ${result.binary.onPath[0] ?? "none"}`];
  for (const harness of result.harnesses) {
    if (!harness.installed && harness.handlers.length === 0) {
      lines.push(`  · ${harness.tool} — ${harness.path}: ${existsSync(harness.path) ? "no AIOSON hooks" : "not installed"}`);
      continue;
    }
    lines.push(`  ${harness.handlers.every((h) => h.ok) ? "✓" : "✗"} ${harness.tool} — ${harness.path}`);
    for (const h of harness.handlers) lines.push(`      ${h.ok ? "✓" : "✗"} ${h.event}${h.matcher ? ` (${h.matcher})` : ""} — exit ${h.exitCode ?? "timeout"}, ${h.ms} ms${h.landed === null ? "" : h.landed ? ", event landed" : ", NO event landed"}`);
    for (const t of harness.trust ?? []) lines.push(`      ${t.state === "trusted" ? "✓" : "⚠"} trust ${handlerLabel(t.event, t.matcher)}: ${t.state}`);
  }
  for (const loc of result.antigravityLocations ?? []) {
    lines.push(`  · Antigravity location ${loc.path}: ${loc.exists ? "exists" : "absent"}${loc.ours ? " (written by aioson)" : ""}${loc.hasAioson ? ", has AIOSON hooks" : ""}`);
  }
  lines.push("─".repeat(50));
  if (result.issues.length === 0) lines.push("No problems found.");
  for (const issue of result.issues) {
    lines.push(`  ${issue.severity === "error" ? "✗" : issue.severity === "warning" ? "⚠" : "·"} ${issue.tool ? `[${issue.tool}] ` : ""}${issue.message}`, `      fix: ${issue.fix}`);
  }
  return lines;
}
