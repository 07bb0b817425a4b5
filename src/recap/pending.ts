/**
 * Compactions that no hook follows (Gemini CLI, GitHub Copilot CLI): the checkpoint is owed until the next hook whose
 * context the harness reads, and is handed over there exactly once. Two kinds of tiny files under
 * `.aioson/runtime/compactions/`, named from a digest of the harness session id (a payload value never becomes a path):
 * - `<source>-<session>-<key>.seen`: this compaction (its key) was recorded; created exclusively, so of two processes
 *   seeing it first exactly one records the marker;
 * - `<source>-<session>.pending`: a checkpoint is owed; whoever unlinks it delivers.
 * On the hook path: node:fs and the project-fs checks only.
 */
import { closeSync, constants, openSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { assertProjectPath, ensureProjectDir } from "../core/project-fs.ts";
import { compactionsDir, digest, pendingPath, stateStem } from "./pending-path.ts";

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** Creates `name` exclusively; false when it already exists. */
function createOnce(root: string, name: string): boolean {
  const dir = compactionsDir(root);
  ensureProjectDir(root, dir);
  const path = join(dir, name);
  assertProjectPath(root, path);
  try {
    closeSync(openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o644));
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === "EEXIST") return false;
    throw error;
  }
}

/** True the first time this compaction of this session is seen (`key`: the harness's own identity of it). */
export function firstSighting(root: string, source: string, session: string | null, key: string): boolean {
  return createOnce(root, `${stateStem(source, session)}-${digest(key)}.seen`);
}

/** Owes the session a checkpoint; false when one was already owed (the same compaction reported again). */
export function markCheckpointPending(root: string, source: string, session: string | null): boolean {
  return createOnce(root, `${stateStem(source, session)}.pending`);
}

/** Takes the owed checkpoint: true for exactly one caller per mark. */
export function takeCheckpointPending(root: string, source: string, session: string | null): boolean {
  const path = pendingPath(root, source, session);
  try {
    assertProjectPath(root, path);
    unlinkSync(path);
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT") return false;
    throw error;
  }
}
