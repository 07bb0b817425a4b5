import { join } from "node:path";
import { runtimeDir } from "../store/paths.ts";
import { ensureRuntimeDir } from "../store/runtime-dir.ts";
import { appendProjectFile, readProjectFile } from "./project-fs.ts";

/** The log keeps two generations of at most this size, so a noisy failure can never fill a disk. */
export const HOOK_LOG_MAX_BYTES = 256 * 1024;
const MESSAGE_MAX = 2_000;

export function hookLogPath(root: string): string {
  return join(runtimeDir(root), "hooks.log");
}

function describe(problem: unknown): string {
  if (problem instanceof Error) return `${problem.name}: ${problem.message}`;
  return typeof problem === "string" ? problem : JSON.stringify(problem) ?? String(problem);
}

/**
 * Appends one line to `<root>/.aioson/runtime/hooks.log`: what a harness hides (hook stderr, exit codes)
 * stays visible here. Only ever called with a real project root; never throws. The log is written like every
 * other project file (project-fs): a symlinked runtime folder or log is refused, and then nothing is logged.
 * `once`: a problem every hook call meets again (a project file too large to read) is not written when the current
 * log already ends a line with it; the check reads the log only when such a problem arises.
 */
export function logHookProblem(root: string | null, command: string, problem: unknown, options: { once?: boolean } = {}): void {
  if (!root) return;
  try {
    const path = hookLogPath(root);
    ensureRuntimeDir(root);
    // One line, no control characters: a message may quote project text, and people read this log in a terminal.
    const text = describe(problem).slice(0, MESSAGE_MAX).replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ");
    if (options.once && loggedAlready(root, path, `${command} ${text}\n`)) return;
    // Past the bound the log becomes `hooks.log.1` (replacing the older generation).
    appendProjectFile(root, path, `${new Date().toISOString()} ${command} ${text}\n`, { rotateAbove: HOOK_LOG_MAX_BYTES });
  } catch {
    // The log is best effort: a hook must never fail because its diagnostics could not be written.
  }
}

/** The current log generation as this process knows it: read once, then extended by the `once` lines it adds. */
const onceLogs = new Map<string, string>();

/** Whether the current log generation holds `line` after a timestamp (which ends in `Z`); if not, it is about to. */
function loggedAlready(root: string, path: string, line: string): boolean {
  let text = onceLogs.get(path);
  if (text === undefined) {
    // The log rotates once past HOOK_LOG_MAX_BYTES: twice that leaves room for the lines that crossed it.
    const read = readProjectFile(root, path, HOOK_LOG_MAX_BYTES * 2);
    text = read.kind === "ok" ? read.text : "";
  }
  const mark = `Z ${line}`;
  if (text.includes(mark)) return true;
  onceLogs.set(path, `${text}${mark}`);
  return false;
}
