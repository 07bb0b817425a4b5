/**
 * The recorded events the export reads, in id order. The store is the project's (it may be committed, edited or
 * crafted), so every column is read with a bound (`substr`) and checked for its type: a value of the wrong type is
 * absent, a payload that is not a JSON object is empty, a row whose time does not parse is left out.
 */
import type { Database } from "bun:sqlite";
import { JSON_READ_MAX, TEXT_READ_MAX, within } from "../store/bounded.ts";

export type EventRow = {
  id: number;
  runKey: string | null;
  agentName: string | null;
  sessionKey: string | null;
  source: string | null;
  eventType: string;
  phase: string | null;
  status: string | null;
  toolName: string | null;
  message: string;
  payload: Readonly<Record<string, unknown>>;
  createdAt: string;
  /** `createdAt` in ms since the epoch. */
  timeMs: number;
  planStepId: string | null;
  workerStatus: string | null;
  verdict: string | null;
  tokenCount: number | null;
  progressPct: number | null;
  harnessSessionId: string | null;
  harness: string | null;
  durationMs: number | null;
};

/** Labels (keys, names, types) are short; a longer one is cut here, before anything else sees it. */
const LABEL_MAX = 256;
const MESSAGE_MAX = 2_000;
/** hooks:emit payloads stay under ~10 KB (an 8,000-character message text is the largest field). */
const PAYLOAD_MAX = 16_384;

const SELECT = `SELECT id,
  substr(${within("run_key", TEXT_READ_MAX)}, 1, ${LABEL_MAX}) AS run_key, substr(${within("agent_name", TEXT_READ_MAX)}, 1, ${LABEL_MAX}) AS agent_name,
  substr(${within("session_key", TEXT_READ_MAX)}, 1, ${LABEL_MAX}) AS session_key, substr(${within("source", TEXT_READ_MAX)}, 1, ${LABEL_MAX}) AS source,
  substr(${within("event_type", TEXT_READ_MAX)}, 1, ${LABEL_MAX}) AS event_type, substr(${within("phase", TEXT_READ_MAX)}, 1, ${LABEL_MAX}) AS phase,
  substr(${within("status", TEXT_READ_MAX)}, 1, ${LABEL_MAX}) AS status, substr(${within("tool_name", TEXT_READ_MAX)}, 1, ${LABEL_MAX}) AS tool_name,
  substr(${within("message", TEXT_READ_MAX)}, 1, ${MESSAGE_MAX}) AS message, substr(${within("payload_json", JSON_READ_MAX)}, 1, ${PAYLOAD_MAX}) AS payload_json,
  substr(${within("created_at", TEXT_READ_MAX)}, 1, 64) AS created_at, substr(${within("plan_step_id", TEXT_READ_MAX)}, 1, ${LABEL_MAX}) AS plan_step_id,
  substr(${within("worker_status", TEXT_READ_MAX)}, 1, ${LABEL_MAX}) AS worker_status, substr(${within("verdict", TEXT_READ_MAX)}, 1, ${LABEL_MAX}) AS verdict,
  token_count, progress_pct, substr(${within("harness_session_id", TEXT_READ_MAX)}, 1, ${LABEL_MAX}) AS harness_session_id,
  substr(${within("harness", TEXT_READ_MAX)}, 1, ${LABEL_MAX}) AS harness, duration_ms
FROM execution_events WHERE id > ? ORDER BY execution_events.id LIMIT ?`;

type RawRow = Record<string, unknown>;

function text(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

function finite(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function payloadOf(value: unknown): Record<string, unknown> {
  if (typeof value !== "string" || value.length >= PAYLOAD_MAX) return {};
  try {
    const parsed: unknown = JSON.parse(value);
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function toRow(raw: RawRow): EventRow | null {
  const id = raw.id;
  const eventType = text(raw.event_type);
  const createdAt = text(raw.created_at);
  const timeMs = createdAt ? Date.parse(createdAt) : Number.NaN;
  if (typeof id !== "number" || !Number.isSafeInteger(id) || !eventType || !createdAt || !Number.isFinite(timeMs)) return null;
  const duration = finite(raw.duration_ms);
  return {
    id,
    runKey: text(raw.run_key),
    agentName: text(raw.agent_name),
    sessionKey: text(raw.session_key),
    source: text(raw.source),
    eventType,
    phase: text(raw.phase),
    status: text(raw.status),
    toolName: text(raw.tool_name),
    message: text(raw.message) ?? "",
    payload: payloadOf(raw.payload_json),
    createdAt,
    timeMs,
    planStepId: text(raw.plan_step_id),
    workerStatus: text(raw.worker_status),
    verdict: text(raw.verdict),
    tokenCount: finite(raw.token_count),
    progressPct: finite(raw.progress_pct),
    harnessSessionId: text(raw.harness_session_id),
    harness: text(raw.harness),
    durationMs: duration !== null && duration >= 0 && duration <= 86_400_000 ? Math.round(duration) : null,
  };
}

export type RowBatch = {
  rows: EventRow[];
  /** The id of the last row read (valid or not): the cursor moves past rows that cannot be exported too. */
  lastId: number;
  /** Rows read, valid or not. */
  read: number;
};

/** At most `limit` rows after `afterId`; null when there are none. */
export function readRowsAfter(db: Database, afterId: number, limit: number): RowBatch | null {
  const raw = db.query(SELECT).all(afterId, limit) as RawRow[];
  if (raw.length === 0) return null;
  const last = raw[raw.length - 1]?.id;
  const rows: EventRow[] = [];
  for (const item of raw) {
    const row = toRow(item);
    if (row) rows.push(row);
  }
  return { rows, lastId: typeof last === "number" ? last : afterId, read: raw.length };
}

export function hasRowsAfter(db: Database, afterId: number): boolean {
  return db.query("SELECT 1 FROM execution_events WHERE id > ? LIMIT 1").get(afterId) !== null;
}

export function countRowsAfter(db: Database, afterId: number): number {
  const row = db.query("SELECT COUNT(*) AS n FROM execution_events WHERE id > ?").get(afterId) as { n: number };
  return row.n;
}
