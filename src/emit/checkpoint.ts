/**
 * hooks:emit for harnesses whose compactions no hook follows (src/harness/index.ts `owesCheckpoints`): one marker per
 * compaction however often the harness reports it, and the checkpoint handed over by the next hook that can.
 * State: src/recap/pending.ts. The recap itself is loaded only when a checkpoint is handed over.
 */
import { deliversCheckpointOn, owesCheckpoints } from "../harness/index.ts";
import type { HookEvent } from "../harness/types.ts";
import { firstSighting, markCheckpointPending, takeCheckpointPending } from "../recap/pending.ts";
import type { EmitRecord } from "./records.ts";

/**
 * Drops a compaction marker that repeats one already recorded: a keyed report (Gemini: the snapshot digest) counts
 * once per key; an unkeyed one (Copilot CLI fires preCompact several times per compaction) counts once until its
 * checkpoint is handed over. A kept marker leaves the checkpoint owed.
 */
export function onceCompacted(root: string, source: string, event: HookEvent, records: readonly EmitRecord[]): readonly EmitRecord[] {
  if (!owesCheckpoints(source) || !records.some((record) => record.eventType === "compaction")) return records;
  const key = event.compactionKey ?? null;
  const first = key === null ? markCheckpointPending(root, source, event.sessionId) : firstSighting(root, source, event.sessionId, key);
  if (first && key !== null) markCheckpointPending(root, source, event.sessionId);
  return first ? records : records.filter((record) => record.eventType !== "compaction");
}

/** The hook answer carrying the owed checkpoint, when this hook can hand it over (null: nothing to print). */
export async function owedCheckpoint(root: string, source: string, eventName: string | null, event: HookEvent, agent: string): Promise<string | null> {
  if (!deliversCheckpointOn(source, eventName) || eventName === null) return null;
  if (!takeCheckpointPending(root, source, event.sessionId)) return null;
  const [{ buildCheckpoint }, { openStore, closeStore }, { contextAnswer }] = await Promise.all([
    import("../recap/recap.ts"),
    import("../store/db.ts"),
    import("../harness/context.ts"),
  ]);
  const store = openStore(root, { mustExist: true });
  if (!store) return null;
  try {
    const text = await buildCheckpoint(store.db, { root, agent, session: null, payloadSession: event.sessionId, liveSessionEnv: process.env.AIOSON_LIVE_SESSION });
    return text ? contextAnswer(source, eventName, text) : null;
  } finally {
    closeStore(store);
  }
}
