/**
 * hooks:recap (spec 5): gate, harness session, rows, facts, text. Reads the store only.
 */
import type { Database } from "bun:sqlite";
import { ContextFiles, activeFeature } from "./context-files.ts";
import { deriveFacts } from "./facts.ts";
import { listsShown, renderCheckpoint } from "./layout.ts";
import { nextStepFor } from "./next-step.ts";
import { isoNow } from "../core/time.ts";
import { appendEventToRun, getRun } from "../store/records.ts";
import { COMPACTION_CONFIRMED, newestSessionMarkers, unconfirmedNewest } from "./markers.ts";
import { latestHarnessSession, legacyRunRows, longWindowRows, type RecapRows, type WalkReads } from "./rows.ts";

export type RecapRequest = {
  root: string;
  /** Install agent (already normalized): fallback "Agent" line and legacy run lookup. */
  agent: string;
  /** `--session`: an explicit harness session never falls back to another one. */
  session: string | null;
  /** `session_id` of the SessionStart payload. */
  payloadSession: string | null;
  /** `AIOSON_LIVE_SESSION`, for the legacy run lookup. */
  liveSessionEnv: string | undefined;
};

export type Gate = { when: string; payload: Record<string, unknown> | null };

/** Spec 5.2: `--when=always` rebuilds on demand; anything else only after a compact SessionStart. */
export function passesGate({ when, payload }: Gate): boolean {
  return when === "always" || payload?.source === "compact";
}

/**
 * The harness itself says a compaction happened: the recap answers its `SessionStart(compact)` (not an on-demand
 * `--when=always` call, which OpenCode also makes before compacting).
 */
export function confirmsCompaction({ when, payload }: Gate): boolean {
  return when !== "always" && payload?.source === "compact";
}

/**
 * Records that the session's newest compaction marker happened (markers.ts), once, in the marker's own run; the
 * checkpoint is built before, so the marker is still "the compaction that just happened" for it.
 */
export function confirmNewestCompaction(db: Database, session: string): boolean {
  const marker = unconfirmedNewest(newestSessionMarkers(db, session, 1).rows);
  if (marker === null) return false;
  const row = db.query("SELECT run_key FROM execution_events WHERE id = ?").get(marker) as { run_key: string | null } | null;
  const run = row?.run_key ? getRun(db, row.run_key) : null;
  if (!run) return false;
  appendEventToRun(db, run, {
    eventType: COMPACTION_CONFIRMED,
    message: "Compaction confirmed (SessionStart)",
    phase: "live",
    payload: { via: "SessionStart", marker, written_by: "hooks:recap", harness_session_id: session },
    harnessSessionId: session,
    at: isoNow(),
  });
  return true;
}

/** A harness session's rows for its checkpoint, read only as far as its lists show (rows.ts longWindowRows). */
export function checkpointRows(db: Database, session: string, reads?: WalkReads): RecapRows | null {
  return longWindowRows(db, session, (rows) => listsShown(deriveFacts(rows)), reads);
}

/** Spec 5.3–5.4: the rows of the chosen harness session, or of the legacy run. */
export async function selectRows(db: Database, request: RecapRequest): Promise<RecapRows | null> {
  if (request.session) return checkpointRows(db, request.session);
  if (request.payloadSession) {
    const rows = checkpointRows(db, request.payloadSession);
    if (rows || latestHarnessSession(db) !== null) return rows;
  } else {
    const latest = latestHarnessSession(db);
    if (latest) return checkpointRows(db, latest);
  }
  // Only stores that predate harness session ids get here: the session model is loaded on demand.
  const { findAgentSessionRun } = await import("./legacy-run.ts");
  const run = findAgentSessionRun(db, request.root, request.agent, request.liveSessionEnv);
  return run ? legacyRunRows(db, run.run_key) : null;
}

/** The checkpoint text of rows already selected (the dashboard shows their facts beside it). */
export function checkpointFromRows(rows: RecapRows, root: string, installAgent: string): string {
  const facts = deriveFacts(rows);
  const agent = facts.activatedAgent ?? installAgent;
  const files = new ContextFiles(root);
  return renderCheckpoint({ agent, feature: activeFeature(files), nextStep: nextStepFor(agent, files), facts });
}

/** The checkpoint text, or null when nothing was recorded for the session. */
export async function buildCheckpoint(db: Database, request: RecapRequest): Promise<string | null> {
  const rows = await selectRows(db, request);
  return rows ? checkpointFromRows(rows, request.root, request.agent) : null;
}
