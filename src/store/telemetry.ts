import { closeStore, openStore, withStoreTransaction } from "./db.ts";
import { insertStandaloneEvent, type StandaloneEvent } from "./records.ts";

/**
 * Spec 2.2/2.5: a standalone telemetry row (context:guard, context:brief) goes only into a store that
 * already exists, and recording never changes what the command answers: every failure is swallowed.
 */
export function recordStandaloneEvent(root: string, event: StandaloneEvent): boolean {
  try {
    const store = openStore(root, { mustExist: true });
    if (!store) return false;
    try {
      withStoreTransaction(store, () => insertStandaloneEvent(store.db, event));
      return true;
    } finally {
      closeStore(store);
    }
  } catch {
    return false;
  }
}
