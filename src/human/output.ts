/**
 * Output for the commands people read (install, doctor, init, status…), through consola. Never imported by a
 * hook-facing command: `scripts/hook-modules.ts` fails the benchmark and the tests when a hook could load it.
 *
 * consola's core (`consola/core`, ≈ 0.5 ms) with a reporter of ours, not its default entry (≈ 14 ms: its fancy
 * reporter, std-env and `process.stdout`, which alone costs a compiled Bun binary about 8 ms): the wording and marks
 * of the spec's lines (`  ✓ Claude Code — …`, `  ⚠ …`, spec 9.11) are the text itself and are printed as they are;
 * on a terminal the reporter only adds colour — the mark of each kind of line, titles, rules, commands to run.
 * With `NO_COLOR`, `CI`, `TERM=dumb` or a stream that is not a terminal, the bytes are exactly the plain text
 * (`FORCE_COLOR` asks for colour anyway; `NO_COLOR` wins). Every line goes through terminalText first: what a line
 * quotes may come from a hostile project, and must not drive the terminal.
 */
import { createConsola, type ConsolaInstance, type LogObject, type LogType } from "consola/core";
import { writeSync } from "node:fs";
import { CommandError, printJson } from "../core/output.ts";
import { terminalText } from "../text/terminal.ts";
import { nextStep } from "./next-step.ts";
import { colourFor, isTerminal, paint, paintCommands, type Paint } from "./style.ts";

/** The spec's marks are the kind of a line: `✓` done, `⚠` a warning, `✗` a failure, `•`/`·` information. */
const MARK = /^(\s*)(✓|⚠|✗|•|·|ℹ|\[dry-run\])(?=\s|$)/;
const KIND_OF_MARK: Readonly<Record<string, LogType>> = { "✓": "success", "⚠": "warn", "✗": "fail", "•": "info", "·": "info", "ℹ": "info", "[dry-run]": "info" };
/** The icon a colour terminal shows before a message that carries no mark of its own. */
const ICON: Partial<Record<LogType, string>> = { success: "✓", warn: "⚠", error: "✗", info: "ℹ" };
const COLOUR_OF: Partial<Record<LogType, Paint>> = { success: "green", warn: "yellow", fail: "red", error: "red", info: "cyan" };
const RULE = /^─+$/;
/** Tag of a line that heads a block. */
const TITLE = "title";

/** A command's own prefix on its event lines (`[session:guard] Session started: …`, spec 10.3). */
const PREFIX = /^\[[a-z]+:[a-z-]+\] /;

export function kindOf(line: string): LogType {
  const text = line.replace(PREFIX, "");
  const mark = MARK.exec(text)?.[2];
  if (mark) return KIND_OF_MARK[mark] ?? "log";
  if (text.startsWith("Error: ")) return "error";
  if (text.startsWith("Warning: ")) return "warn";
  return "log";
}

/** What a line looks like on a colour terminal: its wording untouched, its mark, prefix, title, rule and commands coloured. */
export function colourLine(line: string, type: LogType, tag: string): string {
  if (RULE.test(line)) return paint("dim", line);
  if (tag === TITLE) return paint("bold", line);
  const colour = COLOUR_OF[type];
  const prefix = PREFIX.exec(line)?.[0] ?? "";
  const mark = MARK.exec(line.slice(prefix.length));
  let body = line.slice(prefix.length + (mark?.[0].length ?? 0));
  if (colour) body = body.replace(/^(\s*)(Error|Warning):/, (_m, space: string, label: string) => `${space}${paint("bold", paint(colour, `${label}:`))}`);
  body = body.replace(/^(\s+)(fix:)/, (_m, indent: string, label: string) => `${indent}${paint("dim", label)}`);
  body = paintCommands(body);
  // A mark in a line's last `|` column (live:status's `- <ts> | step_done | $ npm test | ✗ failed (exit 1)`): the line
  // keeps its leading `- `, which scripts read, and the mark and its words take the colour of their kind.
  body = body.replace(/( \| )(✓|⚠|✗)( [^|]*)?$/, (_m, sep: string, inline: string, words = "") => {
    const paintAs = COLOUR_OF[KIND_OF_MARK[inline] ?? "log"];
    return paintAs ? `${sep}${paint(paintAs, `${inline}${words}`)}` : `${sep}${inline}${words}`;
  });
  const shownMark = mark ? `${mark[1]}${colour ? paint(mark[2] === "[dry-run]" ? "magenta" : colour, mark[2] as string) : mark[2]}` : "";
  return `${prefix ? `${paint("dim", prefix.trimEnd())} ` : ""}${shownMark}${body}`;
}

function reporter(write: (text: string) => void, colour: boolean) {
  return {
    log(logObj: LogObject): void {
      const text = terminalText(logObj.args.map(String).join(" "));
      write(colour ? colourLine(text, logObj.type, logObj.tag) : text);
    },
  };
}

function logger(write: (text: string) => void, colour: boolean): ConsolaInstance {
  // No throttling: consola folds a line repeated within a second into "(repeated N times)", and a report's lines are
  // its content (two harnesses may print the same warning).
  return createConsola({ reporters: [reporter(write, colour)], throttle: 0 });
}

/** Every byte of `text` to `fd`, waiting out a full non-blocking pipe (EAGAIN) rather than losing the rest. */
function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text);
  let at = 0;
  for (let tries = 0; at < bytes.length && tries < 1000; ) {
    try {
      at += writeSync(fd, bytes, at);
    } catch (error) {
      if ((error as { code?: unknown }).code !== "EAGAIN") return;
      tries++;
      Bun.sleepSync(1);
    }
  }
}

export type Stream = "stdout" | "stderr";

export type HumanOutput = {
  /** A report's lines, each printed as its kind (mark) says; the line above a rule is its title. */
  lines(lines: readonly string[], to?: Stream): void;
  success(text: string, to?: Stream): void;
  info(text: string, to?: Stream): void;
  warn(text: string, to?: Stream): void;
  /** `Error: <message>` on stderr (spec 0.3), and under it what to run next. */
  error(message: string, hint?: string | null): void;
};

let shared: HumanOutput | null = null;

/** The output of this process (console.log and fd 2: touching process.stdout or process.stderr would cost the 8 ms above). */
export function human(): HumanOutput {
  if (shared) return shared;
  const stream = (write: (text: string) => void, colour: boolean) => ({ logger: logger(write, colour), colour });
  const streams: Record<Stream, { logger: ConsolaInstance; colour: boolean }> = {
    stdout: stream((text) => console.log(text), colourFor(1)),
    // Not console.error: Bun paints it red on a terminal whatever NO_COLOR or CI say.
    stderr: stream((text) => writeAll(2, `${text}\n`), colourFor(2)),
  };
  // `args`, not `message`: consola takes an object with an empty message for a value to print ("[object Object]").
  const print = (to: Stream, type: LogType, text: string, tag = ""): void => {
    streams[to].logger[type]({ args: [text], tag });
  };
  // A message of ours without a mark gets its icon on a colour terminal only: plain output stays the plain text.
  const say = (type: LogType) => (text: string, to: Stream = "stdout") => print(to, type, streams[to].colour && ICON[type] && !MARK.test(text) ? `${ICON[type]} ${text}` : text);
  shared = {
    lines(lines, to = "stdout") {
      const all = lines.flatMap((line) => line.split("\n"));
      // A title is a line of its own (not indented, no mark) with a rule under it.
      all.forEach((line, index) => print(to, kindOf(line), line, /^[^\s─]/.test(line) && kindOf(line) === "log" && RULE.test(all[index + 1] ?? "") ? TITLE : ""));
    },
    success: say("success"),
    info: say("info"),
    warn: say("warn"),
    error(message, hint) {
      say("error")(`Error: ${message}`, "stderr");
      for (const line of hint ? hint.split("\n") : []) print("stderr", "log", line);
    },
  };
  return shared;
}

/** Prints a report's lines (the human half of spec 0.3; `--json` output never comes here). */
export function printHuman(lines: readonly string[]): void {
  if (lines.length > 0) human().lines(lines);
}

/** A failure: `Error: <message>` (and a hint) on stderr, or the `--json` envelope of spec 0.3; its exit status. */
export function reportError(error: unknown, command: string, json: boolean): number {
  const message = error instanceof Error ? error.message : String(error);
  const exitCode = error instanceof CommandError ? error.exitCode : 1;
  if (json) printJson({ ok: false, error: { code: "command_error", message, command } });
  else human().error(message, error instanceof CommandError && error.specWorded && !isTerminal(2) ? null : nextStep(error));
  return exitCode;
}
