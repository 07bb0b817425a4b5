import { join } from "node:path";
import { logHookProblem } from "../core/hook-log.ts";
import { appendProjectFile, readProjectTail } from "../core/project-fs.ts";
import { sessionDir } from "../store/paths.ts";
import { ensureRuntimeDir } from "../store/runtime-dir.ts";

export const NDJSON_TEXT_MAX = 500;

/**
 * A session's events.ndjson is rotated once it holds more than this (about 3,000 hook lines): the file becomes
 * `events.ndjson.1` (replacing the generation before it) and a new one starts, so a session open for months keeps
 * at most two generations on disk. The store stays the source of truth; readers want the newest lines.
 */
export const NDJSON_CAP_BYTES = 1024 * 1024;

/** Throws UnsafeProjectPathError for a session key that cannot name a folder (store/paths.ts). */
export function ndjsonPath(root: string, sessionKey: string): string {
  return join(sessionDir(root, sessionKey), "events.ndjson");
}

/** The previous generation of a session's events.ndjson (see NDJSON_CAP_BYTES). */
export function rotatedNdjsonPath(root: string, sessionKey: string): string {
  return `${ndjsonPath(root, sessionKey)}.1`;
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
    // A full file moves aside first (project-fs): an appender that still holds it writes its line there.
    appendProjectFile(root, path, lines.map((line) => `${JSON.stringify(line)}\n`).join(""), { rotateAbove: NDJSON_CAP_BYTES });
    return true;
  } catch (error) {
    logHookProblem(root, "live", error);
    return false;
  }
}

const TAIL_BYTES = 64 * 1024;

function lastLineOf(root: string, path: string): Record<string, unknown> | null {
  const tail = readProjectTail(root, path, TAIL_BYTES);
  if (tail.kind !== "ok") return null;
  const lines = tail.text.split("\n").filter((line) => line.trim() !== "");
  for (let i = lines.length - 1; i >= 0; i--) {
    try {
      const value: unknown = JSON.parse(lines[i] as string);
      if (value !== null && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // A torn first line of the tail window, or junk: look further back.
    }
  }
  return null;
}

/**
 * The last complete line of a session's events.ndjson, parsed; null when absent, unreadable or refused. Right after a
 * rotation the new file may not hold a line yet: the previous generation's last line is the last one then.
 */
export function readLastNdjsonLine(root: string, sessionKey: string): Record<string, unknown> | null {
  try {
    return lastLineOf(root, ndjsonPath(root, sessionKey)) ?? lastLineOf(root, rotatedNdjsonPath(root, sessionKey));
  } catch {
    // A session key that cannot name a folder.
    return null;
  }
}
