/**
 * `runtime:prune --auto`, the pruner a session's end leaves behind (store/prune-trigger.ts): bounded work at a lower
 * priority, never printed, never failing; what went wrong goes to the project's hook log. It first claims the next
 * day (prune.next), so the sessions ending meanwhile start nothing; a run that stopped at its limit asks to go on
 * sooner.
 */
import { logHookProblem } from "../core/hook-log.ts";
import { lowerPriority } from "../core/priority.ts";
import { closeStore, openStore } from "../store/db.ts";
import { DAY_MS, pruneStore } from "../store/prune.ts";
import { PRUNE_EVERY_MS, setNextPrune } from "../store/prune-trigger.ts";
import { retentionSettings } from "./prune.ts";

const COMMAND = "runtime:prune";
/** Events removed per automatic run: about half a second of deletes at a million events, then their pages back. */
const AUTO_MAX_EVENTS = 20_000;
/** A run that stopped at its limit: the next session end goes on after this long. */
const AGAIN_MS = 10 * 60_000;

export function runAutoPrune(root: string): void {
  lowerPriority();
  setNextPrune(root, Date.now() + PRUNE_EVERY_MS);
  try {
    const settings = retentionSettings(process.env);
    if (!settings.ok) return logHookProblem(root, COMMAND, `not pruned: ${settings.problem}`);
    if (!settings.retention.auto) return;
    const store = openStore(root, { mustExist: true });
    if (!store) return;
    try {
      const report = pruneStore(store, { olderThanMs: settings.retention.days * DAY_MS, dryRun: false, maxEvents: AUTO_MAX_EVENTS });
      if (!report.complete) setNextPrune(root, Date.now() + AGAIN_MS);
    } finally {
      closeStore(store);
    }
  } catch (error) {
    logHookProblem(root, COMMAND, error);
  }
}
