import { closeSync } from "node:fs";
import { join } from "node:path";
import { logHookProblem } from "../core/hook-log.ts";
import { appendProjectFile, assertProjectPath } from "../core/project-fs.ts";
import { openRegularFile, readBytes } from "../core/regular-file.ts";
import { sessionDir } from "../store/paths.ts";
import { ensureRuntimeDir } from "../store/runtime-dir.ts";

export const NDJSON_TEXT_MAX = 500;

/** Throws UnsafeProjectPathError for a session key that cannot name a folder (store/paths.ts). */
export function ndjsonPath(root: string, sessionKey: string): string {
  return join(sessionDir(root, sessionKey), "events.ndjson");
}

/** Spec 2.7: strings in lines are capped at 500 characters (497 + `...`). */
export function capLineText(text: string): string {
  return text.length > NDJSON_TEXT_MAX ? `${text.slice(0, NDJSON_TEXT_MAX - 3)}...` : text;
}

/**
 * Appends lines with one O_APPEND write, so lines from parallel hook processes never interleave.
 * Returns false when the file could not be written (the store already holds the event); a refused path (an
 * unsafe session key, a symlink on the way) is logged.
 */
export function appendNdjson(root: string, sessionKey: string, lines: readonly Record<string, unknown>[]): boolean {
  if (lines.length === 0) return true;
  try {
    const path = ndjsonPath(root, sessionKey);
    ensureRuntimeDir(root, sessionDir(root, sessionKey));
    appendProjectFile(root, path, lines.map((line) => `${JSON.stringify(line)}\n`).join(""));
    return true;
  } catch (error) {
    logHookProblem(root, "live", error);
    return false;
  }
}

const TAIL_BYTES = 64 * 1024;

/** The last complete line of a session's events.ndjson, parsed; null when absent, unreadable or refused. */
export function readLastNdjsonLine(root: string, sessionKey: string): Record<string, unknown> | null {
  let fd: number | undefined;
  try {
    const path = ndjsonPath(root, sessionKey);
    assertProjectPath(root, path, "read");
    const file = openRegularFile(path, { noFollow: true });
    if (file.kind !== "open") return null;
    fd = file.fd;
    const length = Math.min(file.size, TAIL_BYTES);
    const lines = readBytes(fd, file.size - length, length).toString("utf8").split("\n").filter((line) => line.trim() !== "");
    for (let i = lines.length - 1; i >= 0; i--) {
      try {
        const value: unknown = JSON.parse(lines[i] as string);
        if (value !== null && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
      } catch {
        // A torn first line of the tail window, or junk: look further back.
      }
    }
    return null;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
