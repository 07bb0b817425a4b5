import { appendFileSync, mkdirSync, renameSync, statSync } from "node:fs";
import { join } from "node:path";
import { runtimeDir } from "../store/paths.ts";

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
 * stays visible here. Only ever called with a real project root; never throws.
 */
export function logHookProblem(root: string | null, command: string, problem: unknown): void {
  if (!root) return;
  try {
    const path = hookLogPath(root);
    mkdirSync(runtimeDir(root), { recursive: true });
    try {
      if (statSync(path).size > HOOK_LOG_MAX_BYTES) renameSync(path, `${path}.1`);
    } catch {
      // No log yet.
    }
    const text = describe(problem).replace(/[\r\n]+/g, " ").slice(0, MESSAGE_MAX);
    appendFileSync(path, `${new Date().toISOString()} ${command} ${text}\n`);
  } catch {
    // The log is best effort: a hook must never fail because its diagnostics could not be written.
  }
}
