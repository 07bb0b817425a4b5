import { join } from "node:path";

export function runtimeDir(root: string): string {
  return join(root, ".aioson", "runtime");
}

export function dbPath(root: string): string {
  return join(runtimeDir(root), "aios.sqlite");
}

export function liveDir(root: string): string {
  return join(runtimeDir(root), "live");
}

/** Spec 2.1: NTFS forbids `:`, so a session key's colons become `__` on disk. */
export function sessionDir(root: string, sessionKey: string): string {
  return join(liveDir(root), sessionKey.replaceAll(":", "__"));
}

export function sessionsDir(root: string): string {
  return join(runtimeDir(root), ".sessions");
}
