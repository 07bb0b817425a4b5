/**
 * Project files aioson reads for its own use (rules and documents, kit files, lessons, context files, manifests):
 * read through project-fs (inside the root, no symlink on the way, a regular file, bounded, never blocking), and a
 * file that is there but was not read is named in the project's hook log with the reason, the cap for a file too
 * large, once per log generation rather than on every hook call that meets it again.
 */
import { relative, sep } from "node:path";
import { logHookProblem } from "./hook-log.ts";
import { readProjectFile, type ProjectFileRead } from "./project-fs.ts";
import { isInside } from "./project-root.ts";
import { refusalText } from "./regular-file.ts";

/**
 * The text of a project file (`path` below `root`); null when it is missing or was not read, which is logged in the
 * hook log of `logRoot` (the aioson project, when it is not `root` itself; null: nowhere).
 */
export function readProjectText(root: string, path: string, maxBytes: number, logRoot: string | null = root): string | null {
  const read = readProjectFile(root, path, maxBytes);
  if (read.kind === "ok") return read.text;
  logSkippedRead(logRoot, path, read);
  return null;
}

/** The hook-log line of a project file that is there but was not read; nothing for a missing one. */
export function logSkippedRead(root: string | null, path: string, read: Exclude<ProjectFileRead, { kind: "ok" }>): void {
  if (read.kind !== "missing") logSkipped(root, path, refusalText(read));
}

/** A project full of files aioson skips (a folder of symlinks) names this many of them per call, not all. */
const MAX_SKIPPED_LINES = 20;
let skippedLines = 0;

/** The hook-log line of a project path aioson did not read, and why (once per log generation). */
export function logSkipped(root: string | null, path: string, why: string): void {
  if (root === null) return;
  skippedLines += 1;
  if (skippedLines > MAX_SKIPPED_LINES + 1) return;
  const shown = isInside(root, path) ? relative(root, path).split(sep).join("/") : path;
  const text = skippedLines > MAX_SKIPPED_LINES ? `skipped more project files than the ${MAX_SKIPPED_LINES} named before this line` : `skipped ${shown}: ${why}`;
  logHookProblem(root, "read", text, { once: true });
}
