import { appendFileSync, mkdirSync, openSync, readSync, closeSync, fstatSync } from "node:fs";
import { join } from "node:path";
import { sessionDir } from "../store/paths.ts";

export const NDJSON_TEXT_MAX = 500;

export function ndjsonPath(root: string, sessionKey: string): string {
  return join(sessionDir(root, sessionKey), "events.ndjson");
}

/** Spec 2.7: strings in lines are capped at 500 characters (497 + `...`). */
export function capLineText(text: string): string {
  return text.length > NDJSON_TEXT_MAX ? `${text.slice(0, NDJSON_TEXT_MAX - 3)}...` : text;
}

/**
 * Appends lines with one O_APPEND write, so lines from parallel hook processes never interleave.
 * Returns false when the file could not be written (the store already holds the event).
 */
export function appendNdjson(root: string, sessionKey: string, lines: readonly Record<string, unknown>[]): boolean {
  if (lines.length === 0) return true;
  try {
    mkdirSync(sessionDir(root, sessionKey), { recursive: true });
    appendFileSync(ndjsonPath(root, sessionKey), lines.map((line) => `${JSON.stringify(line)}\n`).join(""));
    return true;
  } catch {
    return false;
  }
}

const TAIL_BYTES = 64 * 1024;

/** The last complete line of a session's events.ndjson, parsed; null when absent or unreadable. */
export function readLastNdjsonLine(root: string, sessionKey: string): Record<string, unknown> | null {
  let fd: number | undefined;
  try {
    fd = openSync(ndjsonPath(root, sessionKey), "r");
    const size = fstatSync(fd).size;
    const length = Math.min(size, TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    const lines = buffer.toString("utf8").split("\n").filter((line) => line.trim() !== "");
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
