/**
 * Spec 2.3. The store is shared with the rest of AIOSON, so everything is `IF NOT EXISTS` and
 * migrations only ever add columns and indexes.
 */
import { EVENT_INDEXES } from "./event-indexes.ts";

/**
 * 2: idx_execution_events_session_type (the dashboard's per-session reads of one kind of event).
 * 3: the OpenTelemetry export state (cursors, lease) and the `harness` / `duration_ms` columns.
 * 4: the other indexes of event-indexes.ts (bounded reads of a store of millions of events, issue 16).
 */
export const SCHEMA_VERSION = 4;

export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS tasks (
  task_key TEXT PRIMARY KEY,
  squad_slug TEXT,
  session_key TEXT,
  task_kind TEXT,
  parent_task_key TEXT,
  title TEXT NOT NULL,
  goal TEXT,
  meta_json TEXT,
  status TEXT NOT NULL,
  created_by TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  finished_at TEXT
);
CREATE INDEX IF NOT EXISTS idx_tasks_status ON tasks(status, updated_at DESC);
CREATE INDEX IF NOT EXISTS idx_tasks_squad ON tasks(squad_slug, updated_at DESC);

CREATE TABLE IF NOT EXISTS agent_runs (
  run_key TEXT PRIMARY KEY,
  task_key TEXT REFERENCES tasks(task_key) ON DELETE SET NULL,
  agent_name TEXT NOT NULL,
  agent_kind TEXT NOT NULL DEFAULT 'official',
  squad_slug TEXT,
  session_key TEXT,
  source TEXT NOT NULL DEFAULT 'direct',
  workflow_id TEXT,
  workflow_stage TEXT,
  parent_run_key TEXT,
  title TEXT,
  status TEXT NOT NULL,
  summary TEXT,
  used_skills_json TEXT,
  output_path TEXT,
  started_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  finished_at TEXT
);
CREATE INDEX IF NOT EXISTS idx_agent_runs_status ON agent_runs(status, updated_at DESC);
CREATE INDEX IF NOT EXISTS idx_agent_runs_task ON agent_runs(task_key, updated_at DESC);
CREATE INDEX IF NOT EXISTS idx_agent_runs_squad ON agent_runs(squad_slug, updated_at DESC);

CREATE TABLE IF NOT EXISTS agent_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  run_key TEXT NOT NULL REFERENCES agent_runs(run_key) ON DELETE CASCADE,
  event_type TEXT NOT NULL,
  message TEXT NOT NULL DEFAULT '',
  payload_json TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_agent_events_run ON agent_events(run_key, created_at DESC);

CREATE TABLE IF NOT EXISTS execution_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  task_key TEXT REFERENCES tasks(task_key) ON DELETE SET NULL,
  run_key TEXT REFERENCES agent_runs(run_key) ON DELETE CASCADE,
  agent_name TEXT,
  agent_kind TEXT,
  squad_slug TEXT,
  session_key TEXT,
  source TEXT,
  workflow_id TEXT,
  workflow_stage TEXT,
  parent_run_key TEXT,
  event_type TEXT NOT NULL,
  phase TEXT,
  status TEXT,
  tool_name TEXT,
  message TEXT NOT NULL DEFAULT '',
  payload_json TEXT,
  sequence_no INTEGER NOT NULL DEFAULT 1,
  parent_event_id INTEGER,
  created_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS artifacts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  task_key TEXT,
  run_key TEXT,
  squad_slug TEXT,
  agent_name TEXT,
  kind TEXT NOT NULL,
  title TEXT,
  file_path TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_artifacts_task ON artifacts(task_key, created_at DESC);
CREATE INDEX IF NOT EXISTS idx_artifacts_run ON artifacts(run_key, created_at DESC);

CREATE TABLE IF NOT EXISTS content_items (
  content_key TEXT PRIMARY KEY,
  task_key TEXT,
  run_key TEXT,
  squad_slug TEXT NOT NULL,
  session_key TEXT,
  title TEXT NOT NULL,
  content_type TEXT NOT NULL,
  layout_type TEXT NOT NULL DEFAULT 'document',
  status TEXT NOT NULL DEFAULT 'completed',
  summary TEXT,
  blueprint_slug TEXT,
  used_skills_json TEXT,
  payload_json TEXT,
  source_path TEXT,
  json_path TEXT,
  html_path TEXT,
  created_by_agent TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

-- The OpenTelemetry export (docs/team-export.md): how far each destination has been sent, one row per
-- destination (a hash of the endpoint URL, never the URL) and signal.
CREATE TABLE IF NOT EXISTS otel_export_cursors (
  destination TEXT NOT NULL,
  signal TEXT NOT NULL,
  last_event_id INTEGER NOT NULL DEFAULT 0,
  failures INTEGER NOT NULL DEFAULT 0,
  retry_at INTEGER,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (destination, signal)
);
-- The exporter's lease (one export per project at a time, expiring so that a killed exporter never holds it) and
-- the store's random id, from which trace and span ids derive.
CREATE TABLE IF NOT EXISTS otel_export_state (
  key TEXT PRIMARY KEY,
  value TEXT,
  expires_at INTEGER
);
`;

/** Columns added after the first AIOSON releases; checked against PRAGMA table_info before adding. */
export const ADDED_COLUMNS: ReadonlyArray<{ table: string; column: string; type: string }> = [
  { table: "execution_events", column: "plan_step_id", type: "TEXT" },
  { table: "execution_events", column: "worker_status", type: "TEXT" },
  { table: "execution_events", column: "verdict", type: "TEXT" },
  { table: "execution_events", column: "token_count", type: "INTEGER" },
  { table: "execution_events", column: "progress_pct", type: "REAL" },
  { table: "execution_events", column: "harness_session_id", type: "TEXT" },
  { table: "execution_events", column: "harness", type: "TEXT" },
  { table: "execution_events", column: "duration_ms", type: "INTEGER" },
  { table: "tasks", column: "task_kind", type: "TEXT" },
  { table: "tasks", column: "parent_task_key", type: "TEXT" },
  { table: "tasks", column: "session_key", type: "TEXT" },
  { table: "agent_runs", column: "session_key", type: "TEXT" },
  { table: "agent_runs", column: "source", type: "TEXT NOT NULL DEFAULT 'direct'" },
];

/**
 * Indexes over added columns can only be created once the columns exist. One statement each: a migration builds
 * each index in its own transaction (db.ts).
 */
export const LATE_INDEXES: readonly string[] = [
  "CREATE INDEX IF NOT EXISTS idx_tasks_session ON tasks(session_key, updated_at DESC)",
  "CREATE INDEX IF NOT EXISTS idx_tasks_parent ON tasks(parent_task_key, updated_at DESC)",
  "CREATE INDEX IF NOT EXISTS idx_tasks_kind ON tasks(task_kind, updated_at DESC)",
  // runtime:status's newest tasks and runs of any status (schema 2).
  "CREATE INDEX IF NOT EXISTS idx_tasks_updated ON tasks(updated_at DESC)",
  "CREATE INDEX IF NOT EXISTS idx_agent_runs_updated ON agent_runs(updated_at DESC)",
  "CREATE INDEX IF NOT EXISTS idx_execution_events_run ON execution_events(run_key, sequence_no DESC, created_at DESC)",
  "CREATE INDEX IF NOT EXISTS idx_execution_events_task ON execution_events(task_key, created_at DESC)",
  "CREATE INDEX IF NOT EXISTS idx_execution_events_created ON execution_events(created_at DESC)",
  "CREATE INDEX IF NOT EXISTS idx_execution_events_agent_type ON execution_events(agent_name, event_type, created_at DESC)",
  "CREATE INDEX IF NOT EXISTS idx_execution_events_verdict ON execution_events(verdict, created_at DESC)",
  "CREATE INDEX IF NOT EXISTS idx_execution_events_harness_session ON execution_events(harness_session_id, id)",
  ...EVENT_INDEXES,
];

export const LATE_INDEXES_SQL = LATE_INDEXES.map((statement) => `${statement};`).join("\n");
