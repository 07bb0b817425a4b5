import type { Database } from "bun:sqlite";
import { capLabel, HARNESS_SESSION_ID_MAX, SOURCE_MAX } from "../core/labels.ts";
import { isoNow, slugify } from "../core/time.ts";
import { JSON_READ_MAX, TEXT_READ_MAX, within } from "./bounded.ts";
import { redactDeep, redactSecrets } from "../text/redact.ts";

export type RunStatus = "queued" | "running" | "completed" | "failed";
export type JsonObject = Record<string, unknown>;

export type RunRow = {
  run_key: string;
  task_key: string | null;
  agent_name: string;
  agent_kind: string;
  squad_slug: string | null;
  session_key: string | null;
  source: string;
  workflow_id: string | null;
  workflow_stage: string | null;
  parent_run_key: string | null;
  title: string | null;
  status: string;
  summary: string | null;
  used_skills_json: string | null;
  started_at: string;
  updated_at: string;
  finished_at: string | null;
};

export type TaskRow = {
  task_key: string;
  squad_slug: string | null;
  session_key: string | null;
  task_kind: string | null;
  parent_task_key: string | null;
  title: string;
  goal: string | null;
  meta_json: string | null;
  status: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
};

/**
 * The columns of a run or task row as aioson reads them back: each within its bound (store/bounded.ts), and only
 * those aioson knows, never `*` — a committed store's row can hold a value far larger than the file (a hook reads
 * the run on every write), and a column another tool added is not aioson's to read.
 */
function boundedSelect(columns: readonly string[], alias = ""): string {
  return columns.map((column) => `${within(`${alias}${column}`, column.endsWith("_json") ? JSON_READ_MAX : TEXT_READ_MAX)} AS ${column}`).join(", ");
}

const RUN_COLUMNS: readonly (keyof RunRow)[] = [
  "run_key", "task_key", "agent_name", "agent_kind", "squad_slug", "session_key", "source", "workflow_id", "workflow_stage",
  "parent_run_key", "title", "status", "summary", "used_skills_json", "started_at", "updated_at", "finished_at",
];
const TASK_COLUMNS: readonly (keyof TaskRow)[] = [
  "task_key", "squad_slug", "session_key", "task_kind", "parent_task_key", "title", "goal", "meta_json", "status", "created_by",
  "created_at", "updated_at", "finished_at",
];
/** `SELECT <RUN_SELECT> FROM agent_runs`: a run row, bounded (an ORDER BY names `agent_runs.<column>`, or the
 * bounded value of the same name hides the index). `runSelect("r.")` for a run aliased `r`. */
export const runSelect = (alias = ""): string => boundedSelect(RUN_COLUMNS, alias);
export const RUN_SELECT = runSelect();
const TASK_SELECT = boundedSelect(TASK_COLUMNS);

export type EventInput = {
  eventType: string;
  message?: string;
  phase?: string;
  status?: string;
  toolName?: string | null;
  payload?: JsonObject | null;
  harnessSessionId?: string | null;
  /** The harness that sent the hook payload (hooks:emit rows only). */
  harness?: string | null;
  /** How long the tool call took, when the harness reported it. */
  durationMs?: number | null;
  planStepId?: string | null;
  workerStatus?: string | null;
  verdict?: string | null;
  tokenCount?: number | null;
  progressPct?: number | null;
  /**
   * `message` and `payload` already went through redactSecrets/redactDeep (hooks:emit's records, redacted by
   * classify before they were capped): stored as they are, so the hook path does not scan them twice.
   */
  redacted?: true;
  at?: string;
};

export type AppendedEvent = { id: number; sequenceNo: number; createdAt: string };

const TERMINAL: ReadonlySet<string> = new Set(["completed", "failed"]);

export function isTerminal(status: string): boolean {
  return TERMINAL.has(status);
}

/** Titles are labels too, only longer ones are meant. */
const TITLE_MAX = 500;

/**
 * Every label column is capped here, at the one door into the store, whichever command or payload the value came
 * from (docs/security.md); free text (message, goal, summary) is bounded by its producer.
 */
function label(value: string | null | undefined, max?: number): string | null {
  return typeof value === "string" ? capLabel(value, max) : null;
}

/**
 * Free text (titles, goals, summaries, messages) is redacted here, at the same door, whichever command wrote it
 * (docs/security.md "Secrets"); a title is redacted before it is capped, so a cut never leaves half a secret.
 */
function text(value: string | null | undefined): string | null {
  return typeof value === "string" ? redactSecrets(value) : null;
}

/** A payload or meta object as stored: every string redacted, and every value whose key names a secret. */
function json(value: JsonObject | null | undefined): string | null {
  return value ? JSON.stringify(redactDeep(value)) : null;
}

/** Spec 2.4: a millisecond key that already exists gets `-2`, `-3`, ... (same transaction). */
export function uniqueKey(db: Database, table: "tasks" | "agent_runs", base: string): string {
  const column = table === "tasks" ? "task_key" : "run_key";
  const exists = db.query(`SELECT 1 FROM ${table} WHERE ${column} = ?`);
  if (!exists.get(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!exists.get(candidate)) return candidate;
  }
}

export function parseJsonObject(text: string | null | undefined): JsonObject | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as JsonObject) : null;
  } catch {
    return null;
  }
}

export function getRun(db: Database, runKey: string): RunRow | null {
  return (db.query(`SELECT ${RUN_SELECT} FROM agent_runs WHERE run_key = ?`).get(runKey) as RunRow | null) ?? null;
}

export function getTask(db: Database, taskKey: string): TaskRow | null {
  return (db.query(`SELECT ${TASK_SELECT} FROM tasks WHERE task_key = ?`).get(taskKey) as TaskRow | null) ?? null;
}

export type TaskInput = {
  title: string;
  status?: RunStatus;
  sessionKey?: string | null;
  taskKind?: string | null;
  parentTaskKey?: string | null;
  goal?: string | null;
  meta?: JsonObject | null;
  createdBy?: string | null;
  squadSlug?: string | null;
  at?: string;
};

/** Spec 2.5 startTask. */
export function startTask(db: Database, input: TaskInput): string {
  const at = input.at ?? isoNow();
  const status = input.status ?? "running";
  // The key is made from the title, so from the redacted one.
  const title = redactSecrets(input.title);
  const taskKey = uniqueKey(db, "tasks", `task-${slugify(title)}-${Date.parse(at)}`);
  db.query(
    `INSERT INTO tasks (task_key, squad_slug, session_key, task_kind, parent_task_key, title, goal, meta_json,
       status, created_by, created_at, updated_at, finished_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    taskKey,
    label(input.squadSlug),
    input.sessionKey ?? null,
    label(input.taskKind),
    input.parentTaskKey ?? null,
    capLabel(title, TITLE_MAX),
    text(input.goal),
    json(input.meta),
    status,
    label(input.createdBy),
    at,
    at,
    isTerminal(status) ? at : null,
  );
  return taskKey;
}

export type RunInput = {
  taskKey: string;
  agentName: string;
  agentKind?: string;
  sessionKey?: string | null;
  source?: string;
  title?: string | null;
  status?: RunStatus;
  summary?: string | null;
  usedSkills?: string[] | null;
  squadSlug?: string | null;
  firstEvent?: EventInput;
  at?: string;
};

/** Spec 2.5 startRun: the run and its first event. */
export function startRun(db: Database, input: RunInput): { runKey: string; firstEvent: AppendedEvent } {
  if (!getTask(db, input.taskKey)) throw new Error(`Task not found: ${input.taskKey}`);
  const at = input.at ?? isoNow();
  const status = input.status ?? "running";
  const runKey = uniqueKey(db, "agent_runs", `${slugify(input.agentName)}-${Date.parse(at)}`);
  db.query(
    `INSERT INTO agent_runs (run_key, task_key, agent_name, agent_kind, squad_slug, session_key, source, title,
       status, summary, used_skills_json, started_at, updated_at, finished_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    runKey,
    input.taskKey,
    capLabel(input.agentName),
    capLabel(input.agentKind ?? "official"),
    label(input.squadSlug),
    input.sessionKey ?? null,
    capLabel(input.source ?? "direct", SOURCE_MAX),
    label(text(input.title), TITLE_MAX),
    status,
    text(input.summary),
    input.usedSkills ? JSON.stringify(input.usedSkills) : null,
    at,
    at,
    isTerminal(status) ? at : null,
  );
  const first = input.firstEvent ?? { eventType: "start" };
  const firstEvent = appendRunEvent(db, runKey, {
    phase: "run",
    message: input.title ?? "Agent started",
    at,
    ...first,
  });
  return { runKey, firstEvent };
}

/** Spec 2.5 appendRunEvent: the legacy agent_events row and the execution_events row together. */
export function appendRunEvent(db: Database, runKey: string, event: EventInput): AppendedEvent {
  const run = getRun(db, runKey);
  if (!run) throw new Error(`Run not found: ${runKey}`);
  return appendEventToRun(db, run, event);
}

/** appendRunEvent for a run row the caller has just read in the same transaction (saves re-reading it). */
export function appendEventToRun(db: Database, run: RunRow, event: EventInput): AppendedEvent {
  const runKey = run.run_key;
  const at = event.at ?? isoNow();
  const message = event.redacted ? (event.message ?? "") : redactSecrets(event.message ?? "");
  const payloadJson = event.redacted ? (event.payload ? JSON.stringify(event.payload) : null) : json(event.payload);
  const eventType = capLabel(event.eventType);
  db.query("INSERT INTO agent_events (run_key, event_type, message, payload_json, created_at) VALUES (?, ?, ?, ?, ?)").run(
    runKey,
    eventType,
    message,
    payloadJson,
    at,
  );
  const inserted = db
    .query(
      `INSERT INTO execution_events (task_key, run_key, agent_name, agent_kind, squad_slug, session_key, source,
         workflow_id, workflow_stage, parent_run_key, event_type, phase, status, tool_name, message, payload_json,
         sequence_no, created_at, plan_step_id, worker_status, verdict, token_count, progress_pct, harness_session_id,
         harness, duration_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
         (SELECT COALESCE(MAX(sequence_no), 0) + 1 FROM execution_events WHERE run_key = ?), ?, ?, ?, ?, ?, ?, ?, ?, ?)
       RETURNING id, sequence_no`,
    )
    .get(
      run.task_key,
      runKey,
      run.agent_name,
      run.agent_kind,
      run.squad_slug,
      run.session_key,
      run.source,
      run.workflow_id,
      run.workflow_stage,
      run.parent_run_key,
      eventType,
      label(event.phase),
      label(event.status) ?? run.status,
      label(event.toolName),
      message,
      payloadJson,
      runKey,
      at,
      label(event.planStepId),
      label(event.workerStatus),
      event.verdict ? capLabel(event.verdict.toUpperCase()) : null,
      event.tokenCount ?? null,
      event.progressPct ?? null,
      label(event.harnessSessionId, HARNESS_SESSION_ID_MAX),
      label(event.harness),
      event.durationMs ?? null,
    ) as { id: number; sequence_no: number };
  return { id: inserted.id, sequenceNo: inserted.sequence_no, createdAt: at };
}

export type RunUpdate = {
  status?: RunStatus;
  summary?: string | null;
  usedSkills?: string[];
  at?: string;
};

/** Spec 2.5 updateRun without the trailing event (callers append the event they need). */
export function updateRunRow(db: Database, runKey: string, update: RunUpdate): RunRow {
  const run = getRun(db, runKey);
  if (!run) throw new Error(`Run not found: ${runKey}`);
  const at = update.at ?? isoNow();
  const skills = update.usedSkills
    ? JSON.stringify([...new Set([...(parseStringArray(run.used_skills_json) ?? []), ...update.usedSkills])])
    : run.used_skills_json;
  const status = update.status ?? run.status;
  db.query(
    `UPDATE agent_runs SET status = ?, summary = COALESCE(?, summary), used_skills_json = ?, updated_at = ?,
       finished_at = CASE WHEN ? THEN COALESCE(finished_at, ?) ELSE finished_at END
     WHERE run_key = ?`,
  ).run(status, text(update.summary), skills, at, isTerminal(status) ? 1 : 0, at, runKey);
  return getRun(db, runKey) as RunRow;
}

/** Spec 2.5 updateRun: the row update, then an event (type default `update`). */
export function updateRun(db: Database, runKey: string, update: RunUpdate, event: EventInput = { eventType: "update" }): AppendedEvent {
  updateRunRow(db, runKey, update);
  return appendRunEvent(db, runKey, { message: update.summary ?? "", at: update.at, ...event });
}

export type TaskUpdate = { status?: RunStatus; goal?: string | null; meta?: JsonObject | null; at?: string };

/** Spec 2.5 updateTask (COALESCE semantics). */
export function updateTask(db: Database, taskKey: string, update: TaskUpdate): void {
  const at = update.at ?? isoNow();
  const terminal = update.status ? isTerminal(update.status) : false;
  db.query(
    `UPDATE tasks SET status = COALESCE(?, status), goal = COALESCE(?, goal), meta_json = COALESCE(?, meta_json),
       updated_at = ?, finished_at = CASE WHEN ? THEN COALESCE(finished_at, ?) ELSE finished_at END
     WHERE task_key = ?`,
  ).run(update.status ?? null, text(update.goal), json(update.meta), at, terminal ? 1 : 0, at, taskKey);
}

export type StandaloneEvent = {
  source: string;
  eventType: string;
  phase?: string;
  agentName?: string | null;
  message?: string;
  payload?: JsonObject | null;
  harnessSessionId?: string | null;
  at?: string;
};

/** Spec 2.5: a telemetry row owned by no run (context:guard, context:brief). */
export function insertStandaloneEvent(db: Database, event: StandaloneEvent): number {
  const row = db
    .query(
      `INSERT INTO execution_events (task_key, run_key, agent_name, source, event_type, phase, message, payload_json,
         sequence_no, created_at, harness_session_id)
       VALUES (NULL, NULL, ?, ?, ?, ?, ?, ?, 1, ?, ?) RETURNING id`,
    )
    .get(
      label(event.agentName),
      capLabel(event.source, SOURCE_MAX),
      capLabel(event.eventType),
      capLabel(event.phase ?? event.source),
      redactSecrets(event.message ?? ""),
      json(event.payload),
      event.at ?? isoNow(),
      label(event.harnessSessionId, HARNESS_SESSION_ID_MAX),
    ) as { id: number };
  return row.id;
}

export function parseStringArray(text: string | null | undefined): string[] | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : null;
  } catch {
    return null;
  }
}
