/**
 * Automatic pruning (issue 16): the hook that ends a session (SessionEnd, a session:guard idle close) starts one
 * detached `aioson runtime:prune --auto` when a prune is due, and returns at once; it never waits for it.
 * `.aioson/runtime/prune.next` holds "no prune before <epoch ms>" (core/time-hint.ts), written by the pruner, so
 * the hook pays one bounded read of that file.
 */
import { join } from "node:path";
import { startDetached } from "../core/detached.ts";
import { logHookProblem } from "../core/hook-log.ts";
import { hintAhead, setHint } from "../core/time-hint.ts";
import { runtimeDir } from "./paths.ts";

/** A complete prune is done again after this long. */
export const PRUNE_EVERY_MS = 24 * 3_600_000;

function markerPath(root: string): string {
  return join(runtimeDir(root), "prune.next");
}

/** Pruner side: no automatic prune before `next`. */
export function setNextPrune(root: string, next: number): void {
  setHint(root, markerPath(root), next);
}

export function startAutoPrune(root: string): void {
  try {
    if (hintAhead(markerPath(root), Date.now(), PRUNE_EVERY_MS)) return;
  } catch (error) {
    logHookProblem(root, "runtime:prune", error);
    return;
  }
  startDetached(root, ["runtime:prune", root, "--auto"], "runtime:prune");
}
