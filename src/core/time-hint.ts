/**
 * A file in the project's runtime folder holding one time, "nothing to start before <epoch ms>", written by a
 * background process (the OpenTelemetry exporter, the automatic pruner) and read by the hooks that would start it,
 * so that a hook pays one bounded read instead of a spawn. Only a hint: a missing, unreadable or implausible file
 * (further ahead than the writer ever sets it) means "start", so a project cannot silence the process for long.
 */
import { writeProjectFileAtomic } from "./project-fs.ts";
import { readRegularFile } from "./regular-file.ts";

/** Hook side: whether the file names a time after `now` and at most `maxAheadMs` ahead of it. */
export function hintAhead(path: string, now: number, maxAheadMs: number): boolean {
  const read = readRegularFile(path, 32, { noFollow: true });
  if (read.kind !== "ok" || !/^\d{1,16}$/.test(read.text.trim())) return false;
  const until = Number(read.text.trim());
  return until > now && until - now <= maxAheadMs;
}

/** Writer side: nothing to start before `until` (0: from now on). A failed write only costs a start. */
export function setHint(root: string, path: string, until: number): void {
  try {
    writeProjectFileAtomic(root, path, String(Math.max(0, Math.round(until))));
  } catch {
    // A hint: what the process does stays right without it.
  }
}
