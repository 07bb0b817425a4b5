/**
 * The command strings of spec 9.4: POSIX `command` (single-quoted values, run by `sh -c` / Git Bash), the cmd.exe
 * line (where `"$PWD"` and `|| true` do not exist), Codex's `commandWindows`, which carries that line to cmd.exe
 * through PowerShell, and the one line Gemini CLI runs in bash and PowerShell alike.
 *
 * Every Windows line runs with a hostile repository as the current folder, and cmd.exe looks for a bare program name
 * there before PATH (`.;%PATH%`), so a repository's `aioson.bat` or `cmd.bat` would run in aioson's place. A cmd.exe
 * line therefore sets NoDefaultCurrentDirectoryInExePath before it names aioson (Microsoft: with the variable set,
 * cmd.exe searches `%PATH%` only), and Codex's names cmd.exe by its absolute path. PowerShell never runs a program
 * from the current folder without `.\`; where a harness takes an `env` (Copilot, Gemini) the handler gets the variable
 * too, for the cmd.exe a `.cmd` shim of aioson would start.
 */
import { NO_CURRENT_FOLDER_LOOKUP, systemCmd } from "../core/programs.ts";

/** POSIX single-quoting; `'` becomes `'\''`. Agent ids are validated before they get here, this is belt and braces. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}

const POSIX_TAIL = "2>/dev/null || true";
/** cmd.exe: from here on, programs are looked up on PATH only. */
const NO_CURRENT_FOLDER = "set NoDefaultCurrentDirectoryInExePath=1";

export type CommandKind = "telemetry" | "turnEnd" | "sessionEnd" | "checkpoint" | "guard";

/** The arguments after `aioson` for one of our handler purposes; values come already quoted for the shell. */
function commandArgs(kind: CommandKind, dir: string, agent: string, source: string, tool: string): string {
  switch (kind) {
    case "telemetry":
      return `hooks:emit ${dir} --agent=${agent} --source=${source}`;
    case "turnEnd":
      return `hooks:emit ${dir} --then=agent:done --agent=${agent} --source=${source}`;
    case "sessionEnd":
      return `hooks:emit ${dir} --agent=${agent} --source=${source} --event=SessionEnd`;
    case "checkpoint":
      return `hooks:recap ${dir} --agent=${agent} --source=${source} --json`;
    case "guard":
      return `context:guard ${dir} --tool=${tool} --agent=${agent} --json`;
  }
}

/** POSIX command for one of our handler purposes (context:guard answers in Claude's shape unless told otherwise). */
export function posixCommand(kind: CommandKind, agent: string, source: string, tool = "claude"): string {
  return `aioson ${commandArgs(kind, '"$PWD"', shellQuote(agent), shellQuote(source), bareWord(tool))} ${POSIX_TAIL}`;
}

/**
 * A value written bare on a Windows line: cmd.exe and PowerShell (which Codex may use instead, real-harnesses §2)
 * give `& | < > ^ % ! ( ) ; $ \` ' "` and spaces meanings, and no one quoting serves both, so only a kebab-case word
 * may go there — what agent validation guarantees; anything else is a bug, refused rather than written.
 */
export function bareWord(value: string): string {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(value)) throw new Error(`refusing to write ${JSON.stringify(value)} unquoted on a Windows hook line`);
  return value;
}

/**
 * A cmd.exe line (Copilot's `windows`, the inside of Codex's `commandWindows`): the lookup switch, then `<binary>
 * <args>`; `2>nul` (unless the command's stderr is its output) and `& exit /b 0` keep a missing or failing aioson
 * from becoming "hook failed".
 */
export function cmdLine(args: string, binary = "aioson", keepStderr = false): string {
  return `${NO_CURRENT_FOLDER}& ${binary} ${args}${keepStderr ? "" : " 2>nul"} & exit /b 0`;
}

/** The cmd.exe line for one of our handler purposes: `.` is the cwd, from which the binary walks up to the root. */
export function windowsCommand(kind: CommandKind, rawAgent: string, rawSource: string, tool = "claude"): string {
  return cmdLine(commandArgs(kind, ".", bareWord(rawAgent), bareWord(rawSource), bareWord(tool)));
}

/** What a Copilot handler adds to its environment (VS Code and Copilot CLI both merge a handler's `env`). */
export const COPILOT_HANDLER_ENV: Readonly<Record<string, string>> = NO_CURRENT_FOLDER_LOOKUP;

/**
 * Gemini CLI has one command string for every OS: `bash -c <line>` on Unix, PowerShell on Windows
 * (`powershell.exe|pwsh.exe -NoProfile [-NonInteractive] -Command "<line>; if ($LASTEXITCODE -ne 0) { exit
 * $LASTEXITCODE }"`, `getShellConfiguration` and `HookRunner.executeCommandHook` of the pinned bundle), and reads any
 * exit status of 2 or more as a deny — a missing binary (127) would block every tool. So the line is one that both
 * shells parse alike: bare words, `;`, `exit 0` (which also skips the appended `$LASTEXITCODE` check), and `2>$null`,
 * PowerShell's discard, which bash reads as a redirect to `$null` — the variable GEMINI_HANDLER_ENV gives the handler
 * (Gemini merges a handler's `env` into its environment; PowerShell's `$null` is its own automatic variable, never
 * the environment's). Whatever aioson does, the shell exits 0 and stderr stays out of what Gemini parses.
 */
const GEMINI_TAIL = "2>$null; exit 0";
export const GEMINI_HANDLER_ENV: Readonly<Record<string, string>> = { null: "/dev/null", ...NO_CURRENT_FOLDER_LOOKUP };

export function geminiCommand(kind: CommandKind, rawAgent: string): string {
  return geminiLine(commandArgs(kind, ".", bareWord(rawAgent), "gemini", "gemini"));
}

/** Copilot CLI's `powershell` form (Windows): Gemini's line works in PowerShell as it is. */
export function powershellCommand(kind: CommandKind, rawAgent: string, rawSource: string, tool = "claude"): string {
  return geminiLine(commandArgs(kind, ".", bareWord(rawAgent), bareWord(rawSource), bareWord(tool)));
}

/** `<binary> <args>` with Gemini's tail (the guard kit's lines use it too). */
export function geminiLine(args: string, binary = "aioson"): string {
  return `${binary} ${args} ${GEMINI_TAIL}`;
}

/** The first command of Codex's line, which the cmd.exe fallback runs in a cmd.exe of its own (see below). */
const CODEX_NO_OP = "type nul";

/**
 * Codex's `commandWindows` around a cmd.exe line. Codex 0.169 runs a hook command through the session's shell: `pwsh`,
 * else `powershell`, as `<shell> -NoProfile -Command <line>`, and `cmd.exe /c <line>` only when neither is on PATH
 * (codex-rs core: `default_user_shell()` → `derive_exec_args(.., use_login_shell=false)` gives the hooks' shell
 * program and arguments; hooks `command_runner.rs` appends the line). There a cmd.exe line breaks: in Windows
 * PowerShell 5.1 a bare `&` is a parse error, in pwsh 7 it starts a background job, and `2>nul` is a file. So the line
 * starts `<Windows folder>\System32\cmd.exe --% /d /c`: both PowerShells stop parsing at `--%` and hand the rest of
 * the line, as it is, to that cmd.exe. In the fallback the outer cmd.exe reads the whole line itself: the absolute
 * path keeps it from looking for `cmd` in the session folder (a repository's `cmd.bat`), and its first command ends
 * at the first `&` (`cmd.exe --% /d /c type nul`, a no-op: `type` is built in, so nothing is looked up), then it runs
 * the cmd.exe line after `&`, whose `set` switches the outer cmd.exe's lookup before it names aioson. Under
 * PowerShell the same `type nul` is the no-op first command of the inner cmd.exe, and the one `set` switches that
 * cmd.exe's lookup: one switch serves both ways (earlier versions wrote it twice, where the first copy only set the
 * environment of a cmd.exe that exits at once). The line has no double quote: Codex's fallback passes it through
 * Rust's argument quoting, which turns every `"` into `\"`, and cmd.exe reads that backslash as part of the command.
 * The Windows folder is the machine's SystemRoot (a plain path, validated) when hooks:install runs on Windows,
 * C:\Windows elsewhere.
 */
export function codexWindowsLine(cmd: string): string {
  const shell = systemCmd(process.platform === "win32" ? process.env : {});
  return `${shell} --% /d /c ${CODEX_NO_OP}& ${cmd}`;
}

/** Codex's `commandWindows` for one of our handler purposes. */
export function codexWindowsCommand(kind: CommandKind, agent: string): string {
  return codexWindowsLine(windowsCommand(kind, agent, "codex"));
}

/**
 * What comes before `aioson` on one of our Windows lines, this version's and earlier ones': Codex's `… cmd.exe --%
 * /d /c ` (issue 13 wrote `cmd --% /d /c `) and its no-op first command (earlier versions had a second lookup
 * switch there), and the lookup switch of the cmd.exe lines (none before issue 13).
 */
const WINDOWS_WRAPPER = /^(?:(?:cmd|[A-Za-z]:(?:\\[\w.-]+)+\\cmd\.exe) --% \/d \/c )?(?:type nul& )?(?:set NoDefaultCurrentDirectoryInExePath=1& )*/i;

/** The `aioson …` command inside one of our Windows lines (the string itself, trimmed, when it has no wrapper). */
export function unwrapWindowsLine(command: string): string {
  return command.trim().replace(WINDOWS_WRAPPER, "");
}

/**
 * Spec 9.9: a handler is ours when a command string, trimmed (a Codex Windows line unwrapped), starts with
 * `aioson <one of our subcommands>`. `guard:*` is included so that uninstall also removes the optional guard hooks
 * (`--with=`).
 */
const OURS = /^aioson\s+(hooks:emit|hooks:recap|context:guard|agent:done|live:start|guard:[a-z0-9-]+)(\s|$)/;

export function isOurCommand(command: unknown): boolean {
  return typeof command === "string" && OURS.test(unwrapWindowsLine(command));
}

const AGENT_FLAG = /(?:^|\s)--agent=(?:'((?:[^']|'\\'')*)'|"([^"]*)"|(\S+))/;

/** The `--agent` value of one of our command strings (quoted or bare), or null. */
export function agentOfCommand(command: string): string | null {
  const match = AGENT_FLAG.exec(command);
  if (!match) return null;
  const value = match[1] !== undefined ? match[1].replaceAll("'\\''", "'") : (match[2] ?? match[3] ?? "");
  return value || null;
}

/** The subcommand (`hooks:emit`, `context:guard`…) of one of our command strings. */
export function subcommandOf(command: string): string | null {
  const match = OURS.exec(unwrapWindowsLine(command));
  return match ? (match[1] ?? null) : null;
}
