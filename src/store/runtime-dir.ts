import { join } from "node:path";
import { createProjectFile, ensureProjectDir, entryExists } from "../core/project-fs.ts";
import { runtimeDir } from "./paths.ts";

/** Everything under `.aioson/runtime/` is recorded data (store, logs, live files): never committed by accident. */
export const RUNTIME_GITIGNORE = "*\n";

/**
 * Creates `dir` (the runtime folder, or a folder below it) without following a symlink on the way, and writes the
 * runtime folder's `.gitignore` when it has none (a folder made by an older build, or a deleted file). Whatever
 * already holds that name, even a symlink, is left as it is: the file is only ever created, never rewritten.
 */
export function ensureRuntimeDir(root: string, dir: string = runtimeDir(root)): void {
  ensureProjectDir(root, dir);
  if (ignored.has(root)) return;
  const ignore = join(runtimeDir(root), ".gitignore");
  if (!entryExists(ignore)) createProjectFile(root, ignore, RUNTIME_GITIGNORE);
  ignored.add(root);
}

/** Roots whose runtime folder this process has already given its .gitignore (a hook writes several files). */
const ignored = new Set<string>();
