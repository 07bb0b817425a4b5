/**
 * The guards' own rows, for the status commands: `guard_decision` (every deny, ask and block, kit/decisions.ts) and
 * `guard_injected` (context:guard, spec 6.12). Both are standalone rows (no run), so a session finds its own through
 * the harness session ids its run recorded.
 */
import type { Database } from "bun:sqlite";
import { parseJsonObject } from "./records.ts";

export const GUARD_EVENT_TYPES = ["guard_decision", "guard_injected"] as const;

export type GuardEvent = { ts: string; type: string; guard: string | null; decision: string | null; summary: string };

type Row = { created_at: string; event_type: string; message: string; payload_json: string | null };

function view(row: Row): GuardEvent {
  const payload = parseJsonObject(row.payload_json);
  const injected = row.event_type === "guard_injected";
  const guard = typeof payload?.guard === "string" ? payload.guard : injected ? "context:guard" : null;
  const decision = typeof payload?.decision === "string" ? payload.decision : injected ? "inject" : null;
  return { ts: row.created_at, type: row.event_type, guard, decision, summary: row.message };
}

const TYPES = GUARD_EVENT_TYPES.map((type) => `'${type}'`).join(", ");

/** The newest guard rows of the project, newest first. */
export function recentGuardEvents(db: Database, limit: number): GuardEvent[] {
  return (db.query(`SELECT created_at, event_type, message, payload_json FROM execution_events WHERE event_type IN (${TYPES}) ORDER BY id DESC LIMIT ?`).all(limit) as Row[]).map(view);
}

/** The newest guard rows of the harness sessions a run recorded, oldest first (as a session's recent events are). */
export function runGuardEvents(db: Database, runKey: string, limit: number): GuardEvent[] {
  const rows = db
    .query(
      `SELECT created_at, event_type, message, payload_json FROM execution_events
       WHERE event_type IN (${TYPES}) AND harness_session_id IN (
         SELECT DISTINCT harness_session_id FROM execution_events WHERE run_key = ? AND harness_session_id IS NOT NULL)
       ORDER BY id DESC LIMIT ?`,
    )
    .all(runKey, limit) as Row[];
  return rows.reverse().map(view);
}

/** One text line per guard row, as the status commands print events. */
export function guardEventLine(event: GuardEvent): string {
  return `- ${event.ts} | ${event.type} | ${event.summary || "-"}`;
}
