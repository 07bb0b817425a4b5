/**
 * Progress for the commands people run that take more than a moment (hooks:doctor running each handler, init and
 * update, prune, export): one line on stderr — a spinner, what is being done and how far — redrawn in place and erased
 * when the work is done, so the report that follows prints as it always does. Only where a person watches it: stderr
 * a terminal, not CI, not TERM=dumb (human/style.ts `interactive`); otherwise every call does nothing, and a piped or
 * redirected run prints exactly what it printed before.
 */
import { writeSync } from "node:fs";
import { terminalText } from "../text/terminal.ts";
import { colourFor, interactive, paint, streamWidth } from "./style.ts";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
/** The spinner turns by itself while an asynchronous step runs; a synchronous loop redraws it at each step. */
const TICK_MS = 80;
const ERASE = "\r\x1b[2K";

export type Progress = {
  /** Starts the next step: `label` says what it is (shown terminal-safe, cut to the width of the terminal). */
  step(label: string): void;
  /** Erases the line; the report can print. */
  done(): void;
};

const SILENT: Progress = { step: () => undefined, done: () => undefined };

function write(text: string): void {
  try {
    writeSync(2, text);
  } catch {
    // A closed terminal is no reason to fail the work.
  }
}

/** `title` names the work ("Updating the project"); `total`, when known, turns the step count `[3]` into `[3/12]`. */
export function progress(title: string, total?: number): Progress {
  if (!interactive(2)) return SILENT;
  const colour = colourFor(2);
  // One column short of the width: a line that fills the last column wraps on some terminals, and ERASE would then
  // erase only its second half.
  const width = streamWidth(2) - 1;
  let frame = 0;
  let count = 0;
  let label = "";
  const draw = (): void => {
    const spinner = FRAMES[frame++ % FRAMES.length] as string;
    const counter = total ? `[${count}/${total}]` : `[${count}]`;
    const line = [...`${spinner} ${title} ${counter} ${label}`.trimEnd()].slice(0, width).join("");
    write(`${ERASE}${colour ? line.replace(spinner, paint("cyan", spinner)) : line}`);
  };
  const timer = setInterval(draw, TICK_MS);
  timer.unref();
  return {
    step(next) {
      count++;
      label = terminalText(next);
      draw();
    },
    done() {
      clearInterval(timer);
      write(ERASE);
    },
  };
}

/** Runs `work` under a progress line, erased when it returns, throws or (for a promise) settles. */
export function withProgress<T>(title: string, work: (step: (label: string) => void) => T, total?: number): T {
  const line = progress(title, total);
  let result: T;
  try {
    result = work((label) => line.step(label));
  } catch (error) {
    line.done();
    throw error;
  }
  if (result instanceof Promise) return result.finally(() => line.done()) as T;
  line.done();
  return result;
}
