import { closeStore, openStore, withStoreTransaction } from "../store/db.ts";
import { insertStandaloneEvent } from "../store/records.ts";

/** Spec 8: a `brief_built` row, only into a store that already exists; failures never fail the brief. */
export function recordBrief(root: string, agent: string, payload: Record<string, unknown>): void {
  try {
    const store = openStore(root, { mustExist: true });
    if (!store) return;
    try {
      withStoreTransaction(store, () =>
        insertStandaloneEvent(store.db, {
          source: "context_brief",
          eventType: "brief_built",
          agentName: agent,
          message: `brief built for @${agent}`,
          payload,
        }),
      );
    } finally {
      closeStore(store);
    }
  } catch {
    // Telemetry only.
  }
}
