import { join } from "node:path";
import { keyProblem } from "../core/labels.ts";
import { UnsafeProjectPathError } from "../core/project-fs.ts";

export function runtimeDir(root: string): string {
  return join(root, ".aioson", "runtime");
}

export function dbPath(root: string): string {
  return join(runtimeDir(root), "aios.sqlite");
}

export function liveDir(root: string): string {
  return join(runtimeDir(root), "live");
}

/**
 * Spec 2.1: NTFS forbids `:`, so a session key's colons become `__` on disk. The key may come from a flag, the
 * store, a pointer or a state.json: one that is not a safe key (labels.ts) never becomes a folder name.
 */
export function sessionDir(root: string, sessionKey: string): string {
  const problem = keyProblem(sessionKey);
  if (problem) throw new UnsafeProjectPathError(liveDir(root), `session key ${JSON.stringify(sessionKey.slice(0, 80))} ${problem}`);
  return join(liveDir(root), sessionKey.replaceAll(":", "__"));
}

export function sessionsDir(root: string): string {
  return join(runtimeDir(root), ".sessions");
}
