/**
 * What a person's terminal gets: whether a stream is coloured, the colours, and how wide a line may be. Shared by the
 * report lines (output.ts), the progress line (progress.ts) and `--help` (help.ts), so all of them follow one rule:
 * with `NO_COLOR`, `CI`, `TERM=dumb` or a stream that is not a terminal, the plain text (`FORCE_COLOR` asks for colour
 * anyway; `NO_COLOR` wins). Never imported by a hook (it lives in src/human/, which scripts/hook-modules.ts forbids).
 */
import { fstatSync } from "node:fs";

export type Env = Readonly<Record<string, string | undefined>>;

function set(value: string | undefined): boolean {
  return value !== undefined && value !== "" && value !== "0" && value.toLowerCase() !== "false";
}

/**
 * A terminal: the stream is a character device. Not node:tty's isatty, which costs a compiled Bun binary ≈ 2.6 ms to
 * load; the other character devices output is sent to are sinks such as /dev/null, where colour does no harm.
 */
export function isTerminal(fd: 1 | 2): boolean {
  try {
    return fstatSync(fd).isCharacterDevice();
  } catch {
    return false;
  }
}

/** Colour for one stream (1 stdout, 2 stderr): https://no-color.org, then FORCE_COLOR, then CI, TERM and the TTY. */
export function colourFor(fd: 1 | 2, env: Env = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (set(env.FORCE_COLOR)) return true;
  if (set(env.CI) || env.TERM === "dumb") return false;
  return isTerminal(fd);
}

/** A redrawn line (progress) only where a person watches it: a terminal, not CI, not a dumb terminal. */
export function interactive(fd: 1 | 2, env: Env = process.env): boolean {
  return !set(env.CI) && env.TERM !== "dumb" && isTerminal(fd);
}

/** SGR pairs; consola/utils' `colors` are decided once, for stdout only and without CI, so they are not used. */
const SGR = { bold: [1, 22], dim: [2, 22], red: [31, 39], green: [32, 39], yellow: [33, 39], cyan: [36, 39], magenta: [35, 39] } as const;
export type Paint = keyof typeof SGR;

export function paint(style: Paint, text: string): string {
  const [open, close] = SGR[style];
  return `\x1b[${open}m${text}\x1b[${close}m`;
}

/** Commands to run: `quoted`, or the `aioson …` a line ends with ("To verify that the hooks fire: aioson hooks:doctor"). */
export function paintCommands(line: string): string {
  return line
    .replace(/`([^`]+)`/g, (_m, inner: string) => `\`${paint("cyan", inner)}\``)
    .replace(/(: )(aioson [^`]+)$/, (_m, sep: string, command: string) => `${sep}${paint("cyan", command)}`);
}

/** A width below this is a terminal reporting nonsense (or none), not one a person reads in. */
const NARROWEST = 20;
const DEFAULT_WIDTH = 80;

/**
 * The width a line may take: `COLUMNS` when it is set (a person's or a script's explicit choice, piped output
 * included), else the terminal's own columns, else 80 (a pipe, or a terminal that reports 0 columns).
 */
export function lineWidth(env: Env, terminalColumns: number | undefined): number {
  const columns = Number(env.COLUMNS);
  if (env.COLUMNS !== undefined && Number.isInteger(columns) && columns >= NARROWEST) return columns;
  return terminalColumns !== undefined && terminalColumns >= NARROWEST ? terminalColumns : DEFAULT_WIDTH;
}

/** The width of what `fd` writes to (reading a stream's columns costs a compiled binary ≈ 8 ms: only off a hook's path). */
export function streamWidth(fd: 1 | 2, env: Env = process.env): number {
  if (env.COLUMNS === undefined && !isTerminal(fd)) return DEFAULT_WIDTH;
  return lineWidth(env, isTerminal(fd) ? (fd === 1 ? process.stdout : process.stderr).columns : undefined);
}
