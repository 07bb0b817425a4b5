/**
 * `.aioson/runtime/otel-export.wait`: "no automatic export is needed before <epoch ms>", written by the exporter and
 * read by the hook-side trigger, so that a Stop hook spawns nothing while an export is at work or every destination
 * waits out a backoff (a collector that is down would otherwise cost every turn end a process). It is only a hint:
 * the store's lease and cursors decide; a missing, unreadable or implausible file (beyond the longest backoff) means
 * "start the exporter", so the project cannot silence its export for long through it either.
 */
import { join } from "node:path";
import { hintAhead, setHint } from "../core/time-hint.ts";
import { runtimeDir } from "../store/paths.ts";

/** No backoff, and so no wait, is longer than this: a store or a file cannot silence the export for good. */
export const MAX_BACKOFF_MS = 60 * 60_000;

function waitFilePath(root: string): string {
  return join(runtimeDir(root), "otel-export.wait");
}

/** Hook side: whether the exporter said there is nothing to start before a time still to come. */
export function exportWaiting(root: string, now: number): boolean {
  return hintAhead(waitFilePath(root), now, MAX_BACKOFF_MS);
}

/** Exporter side: no automatic export is needed before `until` (0: from now on). A failed write only costs spawns. */
export function setExportWait(root: string, until: number): void {
  setHint(root, waitFilePath(root), until);
}
