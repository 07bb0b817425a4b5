/**
 * The declarative catalogue of the built-in guards, read by `hooks:install --with=<name,…>`: for each guard its
 * event and matcher in each harness, its timeout, whether it may run async, and the exact command lines.
 *
 * Matchers differ because tool names differ (harness-protocols §1.9, §2.6, §3.6, §7 item 13):
 * Claude Code `Bash`/`PowerShell`; Codex `Bash` (+ `shell`, `exec_command`, `local_shell` in newer builds);
 * Copilot in VS Code has no matcher at all (every PreToolUse hook sees every tool, so the guard filters
 * `run_in_terminal` itself); OpenCode dispatches by plugin hook name and tool id (`bash`); Gemini CLI has its own event
 * and tool names (`BeforeTool` on `run_shell_command`, `AfterAgent` for the turn's end), no sub-agent events, and a
 * PreCompress that fires before every model call (so no context-save there).
 * Every guard runs synchronously: Codex skips `async` handlers, and a guard that decides must be waited for.
 */
import { cmdLine, geminiLine } from "../install/commands.ts";
import type { GuardName } from "./config.ts";

export type KitHarness = "claude" | "codex" | "copilot" | "opencode" | "gemini";

/** Where a guard plugs into one harness; null in `hooks` = the harness has no such event. */
export type HarnessHook = {
  /** Claude/Codex/Copilot: the hook event key; OpenCode: the plugin hook name. */
  event: string;
  /** Matcher string (Claude/Codex regex or `|` list; OpenCode tool id list); null = no matcher key. */
  matcher: string | null;
};

export type CatalogEntry = {
  name: GuardName;
  summary: string;
  /** Agents the seed installs it for (orchestrator, implementor, researcher, validator), informative. */
  usedBy: readonly string[];
  timeout: number;
  async: boolean;
  /** The guard writes to stderr on purpose (audit line): do not silence it. */
  keepStderr: boolean;
  hooks: Readonly<Record<KitHarness, HarnessHook | null>>;
};

const ALL = ["orchestrator", "implementor", "researcher", "validator"] as const;
const STOP = (summary: string, name: GuardName, usedBy: readonly string[]): CatalogEntry => ({
  name,
  summary,
  usedBy,
  timeout: 30,
  async: false,
  keepStderr: false,
  hooks: {
    claude: { event: "Stop", matcher: null },
    codex: { event: "Stop", matcher: null },
    copilot: { event: "Stop", matcher: null },
    // OpenCode's turn end (`session.idle`) is a bus event that cannot block.
    opencode: null,
    // AfterAgent's deny sends the reason back as the next prompt; Gemini joins the reasons of every hook that denies.
    gemini: { event: "AfterAgent", matcher: null },
  },
});

export const GUARD_CATALOG: readonly CatalogEntry[] = [
  {
    name: "pre-commit-guard",
    summary: "Conventional Commits for git commit; git push and git tag ask (deny > ask > allow per chain)",
    usedBy: ["orchestrator", "implementor"],
    timeout: 10,
    async: false,
    keepStderr: false,
    hooks: {
      claude: { event: "PreToolUse", matcher: "Bash|PowerShell" },
      codex: { event: "PreToolUse", matcher: "Bash|shell|exec_command|local_shell" },
      copilot: { event: "PreToolUse", matcher: null },
      opencode: { event: "tool.execute.before", matcher: "bash" },
      gemini: { event: "BeforeTool", matcher: "run_shell_command" },
    },
  },
  STOP("Block a stop whose answer names file paths no tool touched in the turn", "verify-claims", ALL),
  STOP("Medium/low rows of the confidence table need tools really called", "context-confidence-check", ALL),
  STOP("Stop checklist reminder (tests run, task map, quality checklist)", "stop-checklist", ["implementor"]),
  STOP("Output format reminder (Research Summary / Validation Report)", "output-format", ["researcher", "validator"]),
  STOP("Skill Feedback Protocol reminder", "skill-feedback", ALL),
  {
    name: "subagent-audit",
    summary: "Audit line for every sub-agent start (stderr and store)",
    usedBy: ["orchestrator"],
    timeout: 10,
    async: false,
    keepStderr: true,
    hooks: {
      claude: { event: "SubagentStart", matcher: null },
      codex: { event: "SubagentStart", matcher: null },
      copilot: { event: "SubagentStart", matcher: null },
      opencode: null,
      gemini: null,
    },
  },
  {
    name: "lesson-injector",
    summary: "Inject lessons whose tags match the prompt (pt-BR + en keywords)",
    usedBy: ALL,
    timeout: 10,
    async: false,
    keepStderr: false,
    hooks: {
      claude: { event: "UserPromptSubmit", matcher: null },
      codex: { event: "UserPromptSubmit", matcher: null },
      copilot: { event: "UserPromptSubmit", matcher: null },
      opencode: { event: "chat.message", matcher: null },
      gemini: { event: "BeforeAgent", matcher: null },
    },
  },
  {
    name: "session-context",
    summary: "Project, branch, HEAD, uncommitted files and recent commits at session start (≤ 800 chars)",
    usedBy: ALL,
    timeout: 15,
    async: false,
    keepStderr: false,
    hooks: {
      // After a compaction hooks:recap speaks; this guard covers the other starts.
      claude: { event: "SessionStart", matcher: "startup|resume|clear" },
      codex: { event: "SessionStart", matcher: "startup|resume|clear" },
      copilot: { event: "SessionStart", matcher: null },
      opencode: null,
      // Gemini's SessionStart has no compact source: every start is one this guard covers.
      gemini: { event: "SessionStart", matcher: null },
    },
  },
  {
    name: "context-save",
    summary: "Markdown snapshot of the session (files, commands, decisions, TODOs) before compaction",
    usedBy: ALL,
    timeout: 30,
    async: false,
    keepStderr: false,
    hooks: {
      claude: { event: "PreCompact", matcher: null },
      codex: { event: "PreCompact", matcher: null },
      copilot: { event: "PreCompact", matcher: null },
      opencode: { event: "experimental.session.compacting", matcher: null },
      gemini: null,
    },
  },
];

export const GUARD_NAMES: readonly GuardName[] = GUARD_CATALOG.map((entry) => entry.name);

export function catalogEntry(name: string): CatalogEntry | null {
  const wanted = name.trim().replace(/^guard:/, "").toLowerCase();
  return GUARD_CATALOG.find((entry) => entry.name === wanted) ?? null;
}

/**
 * `--with=a,b` → catalogue entries in catalogue order; unknown names are returned separately so the installer
 * can report them (`all` selects every guard).
 */
export function selectGuards(list: string): { entries: CatalogEntry[]; unknown: string[] } {
  const names = list.split(",").map((name) => name.trim()).filter(Boolean);
  if (names.some((name) => name.toLowerCase() === "all")) return { entries: [...GUARD_CATALOG], unknown: [] };
  const unknown = names.filter((name) => !catalogEntry(name));
  const wanted = new Set(names.map((name) => catalogEntry(name)?.name).filter(Boolean));
  return { entries: GUARD_CATALOG.filter((entry) => wanted.has(entry.name)), unknown };
}

/** `'…'` POSIX quoting, as §9.4 writes `--agent='<a>'`. */
function shellQuote(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}

export type CommandOptions = { agent?: string; binary?: string };

/**
 * POSIX command line: `aioson guard:<name> "$PWD" --tool=<harness> [--agent='<a>'] 2>/dev/null || true`.
 * `|| true` keeps a missing or broken binary from becoming "hook failed" on every call; stderr is silenced
 * except for guards whose stderr is their output (subagent-audit).
 */
export function guardCommandLine(entry: CatalogEntry, harness: KitHarness, options: CommandOptions = {}): string {
  // Gemini CLI's one line for bash and PowerShell (src/install/commands.ts geminiCommand): bare words only.
  if (harness === "gemini") return geminiLine(`guard:${entry.name} . --tool=gemini${options.agent ? ` --agent=${options.agent}` : ""}`, options.binary);
  const agent = options.agent ? ` --agent=${shellQuote(options.agent)}` : "";
  const stderr = entry.keepStderr ? "" : " 2>/dev/null";
  return `${options.binary ?? "aioson"} guard:${entry.name} "$PWD" --tool=${harness}${agent}${stderr} || true`;
}

/**
 * Windows command line, for cmd.exe (hooks-behavior §9.4 form: `. … 2>nul & exit /b 0`, after the switch that keeps
 * cmd.exe from looking for aioson in the project: src/install/commands.ts `cmdLine`). Codex's installer puts it behind
 * its PowerShell-proof prefix (`codexWindowsLine`).
 * VS Code runs a hook's `windows` string with Node's `spawn(command, {shell: true})`, i.e. `cmd.exe /d /s /c`
 * (microsoft/vscode `src/vs/workbench/api/node/extHostHooksNode.ts`: only a Copilot-CLI `powershell` key selects
 * PowerShell), so Copilot gets the same cmd form: a missing binary never becomes a warning on every tool call.
 * Claude Code runs Git Bash on Windows and uses the POSIX line.
 */
export function guardCommandLineWindows(entry: CatalogEntry, harness: KitHarness, options: CommandOptions = {}): string {
  const agent = options.agent ? ` --agent=${options.agent}` : "";
  return cmdLine(`guard:${entry.name} . --tool=${harness}${agent}`, options.binary, entry.keepStderr);
}

/** The Stop guards run together by one `guard:stop-guards` handler (Copilot hands the model only one Stop reason). */
export const STOP_GUARDS_COMMAND = "guard:stop-guards";

/**
 * The three lines of one `guard:stop-guards` handler for Copilot (POSIX `command`, VS Code's cmd.exe `windows`,
 * Copilot CLI's PowerShell `powershell`): the guards are kebab-case catalogue names, bare on every line.
 */
export function stopGuardsLines(names: readonly string[], options: CommandOptions = {}): { command: string; windows: string; powershell: string } {
  const list = names.join(",");
  const posixAgent = options.agent ? ` --agent=${shellQuote(options.agent)}` : "";
  const bareAgent = options.agent ? ` --agent=${options.agent}` : "";
  const binary = options.binary ?? "aioson";
  return {
    command: `${binary} ${STOP_GUARDS_COMMAND} "$PWD" --tool=copilot --guards=${list}${posixAgent} 2>/dev/null || true`,
    windows: cmdLine(`${STOP_GUARDS_COMMAND} . --tool=copilot --guards=${list}${bareAgent}`, binary),
    powershell: geminiLine(`${STOP_GUARDS_COMMAND} . --tool=copilot --guards=${list}${bareAgent}`, binary),
  };
}

/** `--guards=a,b` of a `guard:stop-guards` line: the catalogue's Stop guards it names (unknown names dropped). */
export function stopGuardsOf(command: string): CatalogEntry[] {
  const list = /(?:^|\s)--guards=(\S+)/.exec(command)?.[1] ?? "";
  const names = new Set(list.split(","));
  return GUARD_CATALOG.filter((entry) => names.has(entry.name) && entry.hooks.copilot?.event === "Stop");
}

/** Recognises our guard handlers (for uninstall): `aioson guard:<name> …`. */
export const GUARD_COMMAND_PATTERN = /^aioson(?:\.exe)?\s+guard:([a-z-]+)(?:\s|$)/;
