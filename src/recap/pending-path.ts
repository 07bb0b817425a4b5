/**
 * Where src/recap/pending.ts keeps its state, and the one check every hook of a harness that owes checkpoints makes:
 * is one owed now? Kept apart (node:fs and node:path only) so that hooks:emit pays one `lstat` for it, not the load
 * of the module that writes the state.
 */
import { lstatSync } from "node:fs";
import { join } from "node:path";
import { runtimeDir } from "../store/paths.ts";

export function compactionsDir(root: string): string {
  return join(runtimeDir(root), "compactions");
}

/** A payload value never becomes a path: names are built from digests. */
export function digest(text: string): string {
  return Bun.hash(text).toString(16).padStart(16, "0");
}

export function stateStem(source: string, session: string | null): string {
  return `${digest(source)}-${digest(session ?? "")}`;
}

export function pendingPath(root: string, source: string, session: string | null): string {
  return join(compactionsDir(root), `${stateStem(source, session)}.pending`);
}

/** Whether a checkpoint is owed to this session (taking it checks the path properly: pending.ts). */
export function checkpointOwed(root: string, source: string, session: string | null): boolean {
  try {
    return lstatSync(pendingPath(root, source, session)).isFile();
  } catch {
    return false;
  }
}
