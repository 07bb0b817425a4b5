/**
 * The command strings of spec 9.4: POSIX `command` (single-quoted values, run by `sh -c` / Git Bash)
 * and the Windows `commandWindows` (run by `cmd.exe /C`, where `"$PWD"` and `|| true` do not exist).
 */

/** POSIX single-quoting; `'` becomes `'\''`. Agent ids are validated before they get here, this is belt and braces. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}

const POSIX_TAIL = "2>/dev/null || true";
const WINDOWS_TAIL = "2>nul & exit /b 0";

export type CommandKind = "telemetry" | "turnEnd" | "sessionEnd" | "checkpoint" | "guard";

/** POSIX command for one of our handler purposes. */
export function posixCommand(kind: CommandKind, agent: string, source: string): string {
  const a = shellQuote(agent);
  const s = shellQuote(source);
  switch (kind) {
    case "telemetry":
      return `aioson hooks:emit "$PWD" --agent=${a} --source=${s} ${POSIX_TAIL}`;
    case "turnEnd":
      return `aioson hooks:emit "$PWD" --then=agent:done --agent=${a} --source=${s} ${POSIX_TAIL}`;
    case "sessionEnd":
      return `aioson hooks:emit "$PWD" --agent=${a} --source=${s} --event=SessionEnd ${POSIX_TAIL}`;
    case "checkpoint":
      return `aioson hooks:recap "$PWD" --agent=${a} --source=${s} --json ${POSIX_TAIL}`;
    case "guard":
      return `aioson context:guard "$PWD" --tool=claude --agent=${a} --json ${POSIX_TAIL}`;
  }
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

/** Windows command (Codex `commandWindows`): `.` is the cwd, from which the binary walks up to the root. */
export function windowsCommand(kind: CommandKind, rawAgent: string, rawSource: string): string {
  const agent = bareWord(rawAgent);
  const source = bareWord(rawSource);
  switch (kind) {
    case "telemetry":
      return `aioson hooks:emit . --agent=${agent} --source=${source} ${WINDOWS_TAIL}`;
    case "turnEnd":
      return `aioson hooks:emit . --then=agent:done --agent=${agent} --source=${source} ${WINDOWS_TAIL}`;
    case "sessionEnd":
      return `aioson hooks:emit . --agent=${agent} --source=${source} --event=SessionEnd ${WINDOWS_TAIL}`;
    case "checkpoint":
      return `aioson hooks:recap . --agent=${agent} --source=${source} --json ${WINDOWS_TAIL}`;
    case "guard":
      return `aioson context:guard . --tool=claude --agent=${agent} --json ${WINDOWS_TAIL}`;
  }
}

/**
 * Spec 9.9: a handler is ours when a command string, trimmed, starts with `aioson <one of our subcommands>`.
 * `guard:*` is included so that uninstall also removes the optional guard hooks (`--with=`).
 */
const OURS = /^aioson\s+(hooks:emit|hooks:recap|context:guard|agent:done|live:start|guard:[a-z0-9-]+)(\s|$)/;

export function isOurCommand(command: unknown): boolean {
  return typeof command === "string" && OURS.test(command.trim());
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
  const match = OURS.exec(command.trim());
  return match ? (match[1] ?? null) : null;
}
