/**
 * The guards' own rows, for the status commands: `guard_decision` (every deny, ask and block, kit/decisions.ts) and
 * `guard_injected` (context:guard, spec 6.12). Both are standalone rows (no run), so a session finds its own through
 * the harness session ids its run recorded.
 */
import type { Database } from "bun:sqlite";
import { JSON_READ_MAX, TEXT_READ_MAX, within } from "./bounded.ts";
import { parseJsonObject } from "./records.ts";
import { newestOfTypes } from "./typed-events.ts";

export const GUARD_EVENT_TYPES = ["guard_decision", "guard_injected"] as const;

export type GuardEvent = { ts: string; type: string; guard: string | null; decision: string | null; summary: string };

type Row = { created_at: string; id: number; event_type: string; message: string; payload_json: string | null };

const COLUMNS = `created_at, id, event_type, ${within("message", TEXT_READ_MAX)} AS message, ${within("payload_json", JSON_READ_MAX)} AS payload_json`;

function view(row: Row): GuardEvent {
  const payload = parseJsonObject(row.payload_json);
  const injected = row.event_type === "guard_injected";
  const guard = typeof payload?.guard === "string" ? payload.guard : injected ? "context:guard" : null;
  const decision = typeof payload?.decision === "string" ? payload.decision : injected ? "inject" : null;
  return { ts: row.created_at, type: row.event_type, guard, decision, summary: row.message };
}

/** The newest guard rows of the project, newest first (by time, then id: store/typed-events.ts). */
export function recentGuardEvents(db: Database, limit: number): GuardEvent[] {
  return newestOfTypes<Row>(db, COLUMNS, GUARD_EVENT_TYPES, limit).map(view);
}

/** How many of a run's newest rows name the harness sessions whose guard rows a session shows. */
const RUN_ROWS_READ = 1_000;

/**
 * The newest guard rows of the harness sessions a run recorded lately (those of its newest RUN_ROWS_READ rows: a
 * hooks session open for months holds thousands of harness sessions), oldest first, as a session's recent events are.
 * One index range per session and type (session_type).
 */
export function runGuardEvents(db: Database, runKey: string, limit: number): GuardEvent[] {
  const sessions = db
    .query(
      `SELECT DISTINCT harness_session_id AS id FROM (SELECT harness_session_id FROM execution_events WHERE run_key = ?
         ORDER BY sequence_no DESC LIMIT ${RUN_ROWS_READ}) WHERE harness_session_id IS NOT NULL`,
    )
    .all(runKey) as Array<{ id: string }>;
  const typed = db.query(`SELECT ${COLUMNS} FROM execution_events WHERE harness_session_id = ? AND event_type = ? ORDER BY id DESC LIMIT ?`);
  const rows: Row[] = [];
  for (const session of sessions) for (const type of GUARD_EVENT_TYPES) rows.push(...(typed.all(session.id, type, limit) as Row[]));
  return rows.sort((a, b) => b.id - a.id).slice(0, limit).reverse().map(view);
}

/** One text line per guard row, as the status commands print events. */
export function guardEventLine(event: GuardEvent): string {
  return `- ${event.ts} | ${event.type} | ${event.summary || "-"}`;
}
