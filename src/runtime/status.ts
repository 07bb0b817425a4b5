/** `runtime:status` (spec 12): the store's tasks, runs and newest events, decorated for people and `jq`. */
import type { Database } from "bun:sqlite";
import type { PlanStep } from "../live/plan.ts";
import { boundedColumns, TEXT_READ_MAX, within } from "../store/bounded.ts";
import { HANDOFF_TERM } from "../store/event-indexes.ts";
import { guardEventLine, recentGuardEvents, type GuardEvent } from "../store/guard-events.ts";
import { parseJsonObject, parseStringArray, type JsonObject } from "../store/records.ts";
import { terminalText } from "../text/terminal.ts";

type Row = Record<string, unknown>;
export type StatusCounts = { queued: number; running: number; completed: number; failed: number };

const RECENT = 20;
const RECENT_SESSIONS = 10;
const RECENT_EVENTS = 40;
const RECENT_HANDOFFS = 10;
const ACTIVE_LIMIT = 100;

/** Events that hand work from one agent to another (`handoff`, `live_handoff`, …): a partial index holds them. */
const HANDOFF_WHERE = HANDOFF_TERM;

function counts(db: Database, table: "tasks" | "agent_runs"): StatusCounts {
  const result: StatusCounts = { queued: 0, running: 0, completed: 0, failed: 0 };
  for (const row of db.query(`SELECT status, COUNT(*) AS n FROM ${table} GROUP BY status`).all() as Array<{ status: string; n: number }>) {
    if (row.status in result) result[row.status as keyof StatusCounts] = row.n;
  }
  return result;
}

/** `meta.plan_steps` entries that have at least an id (tolerates hand-edited meta). */
export function planSteps(meta: JsonObject | null): PlanStep[] {
  const raw = meta?.plan_steps;
  if (!Array.isArray(raw)) return [];
  const steps: PlanStep[] = [];
  for (const item of raw) {
    if (item === null || typeof item !== "object") continue;
    const { id, title, done } = item as Record<string, unknown>;
    if (typeof id !== "string" || id === "") continue;
    steps.push({ id, title: typeof title === "string" ? title : id, done: done === true });
  }
  return steps;
}

/** A task's columns (each within its bound, store/bounded.ts) and the counts runtime:status adds. */
const taskColumns = (db: Database): string => `${boundedColumns(db, "tasks", "t.")},
  (SELECT COUNT(*) FROM agent_runs r WHERE r.task_key = t.task_key) AS agent_count,
  (SELECT COUNT(*) FROM artifacts a WHERE a.task_key = t.task_key) AS artifact_count,
  (SELECT ${within("r.agent_name", TEXT_READ_MAX)} FROM agent_runs r WHERE r.task_key = t.task_key
     ORDER BY CASE r.status WHEN 'running' THEN 0 ELSE 1 END, r.updated_at DESC LIMIT 1) AS latest_agent_name,
  (SELECT COUNT(*) FROM tasks c WHERE c.parent_task_key = t.task_key) AS child_task_count,
  (SELECT COUNT(*) FROM tasks c WHERE c.parent_task_key = t.task_key AND c.status = 'completed') AS completed_child_task_count,
  (SELECT COUNT(*) FROM execution_events e WHERE e.task_key = t.task_key AND e.${HANDOFF_WHERE}) AS handoff_count`;

function decorateTask(row: Row): Row {
  const meta = parseJsonObject(row.meta_json as string | null) ?? {};
  const steps = planSteps(meta);
  return {
    ...row,
    meta,
    plan_steps_done: steps.filter((step) => step.done).length,
    plan_steps_total: steps.length,
    is_live_session: row.task_kind === "live_session",
    is_micro_task: row.task_kind === "micro_task",
  };
}

function tasks(db: Database, where: string, limit: number): Row[] {
  const sql = `SELECT ${taskColumns(db)} FROM tasks t ${where} ORDER BY t.updated_at DESC LIMIT ${limit}`;
  return (db.query(sql).all() as Row[]).map(decorateTask);
}

function decorateRun(row: Row): Row {
  return {
    ...row,
    used_skills: parseStringArray(row.used_skills_json as string | null) ?? [],
    is_live: row.source === "live",
    is_handoff_child: typeof row.parent_run_key === "string" && row.parent_run_key !== "",
  };
}

function runs(db: Database, where: string, limit: number): Row[] {
  return (db.query(`SELECT ${boundedColumns(db, "agent_runs")} FROM agent_runs ${where} ORDER BY agent_runs.updated_at DESC LIMIT ${limit}`).all() as Row[]).map(decorateRun);
}

function stringField(object: JsonObject | null, ...keys: string[]): string | null {
  for (const key of keys) {
    const value = object?.[key];
    if (typeof value === "string" && value !== "") return value;
  }
  return null;
}

/** Event rows: the DB columns plus `payload`, handoff fields, and the `{ts,type,summary}` view. */
export function decorateEvent(row: Row): Row {
  const payload = parseJsonObject(row.payload_json as string | null);
  const isHandoff = typeof row.event_type === "string" && row.event_type.includes("handoff");
  return {
    ...row,
    payload,
    ts: row.created_at,
    type: row.event_type,
    summary: row.message,
    is_handoff: isHandoff,
    handoff_from: isHandoff ? stringField(payload, "from", "handoff_from", "from_agent") ?? (row.agent_name as string | null) : null,
    handoff_to: isHandoff ? stringField(payload, "to", "handoff_to", "to_agent") : null,
  };
}

function events(db: Database, where: string, limit: number): Row[] {
  return (db.query(`SELECT ${boundedColumns(db, "execution_events")} FROM execution_events ${where} ORDER BY execution_events.created_at DESC, execution_events.id DESC LIMIT ${limit}`).all() as Row[]).map(
    decorateEvent,
  );
}

const ACTIVE = "status IN ('queued', 'running')";

export type RuntimeStatus = {
  ok: true;
  targetDir: string;
  dbPath: string;
  taskCounts: StatusCounts;
  counts: StatusCounts;
  activeTasks: Row[];
  recentTasks: Row[];
  activeRuns: Row[];
  recentRuns: Row[];
  activeLiveSessions: Row[];
  activeMicroTasks: Row[];
  recentLiveSessions: Row[];
  recentMicroTasks: Row[];
  recentHandoffs: Row[];
  recentArtifacts: Row[];
  recentContentItems: Row[];
  recentExecutionEvents: Row[];
  recentEvents: Row[];
  /** The newest guard decisions and injections (store/guard-events.ts), newest first. */
  recentGuardEvents: GuardEvent[];
};

export function runtimeStatus(db: Database, targetDir: string, dbPath: string): RuntimeStatus {
  const recentEvents = events(db, "", RECENT_EVENTS);
  return {
    ok: true,
    targetDir,
    dbPath,
    taskCounts: counts(db, "tasks"),
    counts: counts(db, "agent_runs"),
    activeTasks: tasks(db, `WHERE t.${ACTIVE}`, ACTIVE_LIMIT),
    recentTasks: tasks(db, "", RECENT),
    activeRuns: runs(db, `WHERE ${ACTIVE}`, ACTIVE_LIMIT),
    recentRuns: runs(db, "", RECENT),
    activeLiveSessions: tasks(db, `WHERE t.task_kind = 'live_session' AND t.${ACTIVE}`, ACTIVE_LIMIT),
    activeMicroTasks: tasks(db, `WHERE t.task_kind = 'micro_task' AND t.${ACTIVE}`, ACTIVE_LIMIT),
    recentLiveSessions: tasks(db, "WHERE t.task_kind = 'live_session'", RECENT_SESSIONS),
    recentMicroTasks: tasks(db, "WHERE t.task_kind = 'micro_task'", RECENT_SESSIONS),
    recentHandoffs: events(db, `WHERE ${HANDOFF_WHERE}`, RECENT_HANDOFFS),
    recentArtifacts: db.query(`SELECT ${boundedColumns(db, "artifacts")} FROM artifacts ORDER BY artifacts.created_at DESC, artifacts.id DESC LIMIT ${RECENT}`).all() as Row[],
    recentContentItems: (db.query(`SELECT ${boundedColumns(db, "content_items")} FROM content_items ORDER BY content_items.updated_at DESC LIMIT ${RECENT}`).all() as Row[]).map((row) => ({
      ...row,
      payload: parseJsonObject(row.payload_json as string | null),
      used_skills: parseStringArray(row.used_skills_json as string | null) ?? [],
    })),
    recentExecutionEvents: recentEvents,
    recentEvents,
    recentGuardEvents: recentGuardEvents(db, RECENT),
  };
}

const DASH = "—";

function text(value: unknown, fallback = DASH): string {
  return typeof value === "string" && value.trim() !== "" ? value : fallback;
}

function countLine(label: string, c: StatusCounts): string {
  return `${label} -> Queued: ${c.queued} | Running: ${c.running} | Completed: ${c.completed} | Failed: ${c.failed}`;
}

/** The text layout of spec 12. */
export function formatRuntimeStatus(status: RuntimeStatus): string[] {
  const lines = [`Runtime status: ${status.targetDir}`, `DB: ${status.dbPath}`, countLine("Tasks", status.taskCounts), countLine("Runs ", status.counts)];
  if (status.activeTasks.length === 0) lines.push("No active tasks.");
  else {
    lines.push("Active tasks:");
    for (const t of status.activeTasks) lines.push(`- ${t.task_key} | squad: ${text(t.squad_slug)} | status: ${t.status} | work: ${text(t.title)}`);
  }
  if (status.activeRuns.length === 0) lines.push("No active agent runs.");
  else {
    lines.push("Active runs:");
    for (const r of status.activeRuns) {
      lines.push(`- ${r.agent_name} | squad: ${text(r.squad_slug)} | status: ${r.status} | work: ${text(r.title, text(r.summary))}`);
    }
  }
  if (status.activeLiveSessions.length > 0) {
    lines.push("Active live sessions:");
    for (const t of status.activeLiveSessions) {
      const plan = (t.plan_steps_total as number) > 0 ? `${t.plan_steps_done}/${t.plan_steps_total}` : DASH;
      lines.push(
        `- ${t.task_key} | agent: ${text(t.latest_agent_name, text(t.created_by))} | status: ${t.status} | plan: ${plan} | micro: ${t.completed_child_task_count}/${t.child_task_count} | handoffs: ${t.handoff_count} | work: ${text(t.title)}`,
      );
    }
  }
  if (status.activeMicroTasks.length > 0) {
    lines.push("Active micro-tasks:");
    for (const t of status.activeMicroTasks) {
      lines.push(`- ${t.task_key} | session: ${text(t.parent_task_key)} | status: ${t.status} | work: ${text(t.title)}`);
    }
  }
  if (status.recentHandoffs.length > 0) {
    lines.push("Recent handoffs:");
    for (const e of status.recentHandoffs.slice(0, 5)) {
      lines.push(`- ${e.ts} | ${text(e.handoff_from)} -> ${text(e.handoff_to)} | ${text(e.summary)}`);
    }
  }
  if (status.recentGuardEvents.length > 0) {
    lines.push("Recent guard events:");
    for (const event of status.recentGuardEvents.slice(0, 5)) lines.push(guardEventLine(event));
  }
  // Every value here was recorded, by hooks in a project that may be hostile: one terminal-safe line each.
  return lines.map(terminalText);
}
