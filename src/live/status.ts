/** `live:status` (spec 11): one snapshot of the agent's (or the latest) live session. */
import type { Database } from "bun:sqlite";
import { agentHandle, canonicalAgent } from "../core/agent.ts";
import { boundedColumns, JSON_READ_MAX, SIZE_OF, TEXT_READ_MAX, within } from "../store/bounded.ts";
import { guardEventLine, runGuardEvents, type GuardEvent } from "../store/guard-events.ts";
import { getTask, parseJsonObject, type RunRow, type TaskRow } from "../store/records.ts";
import { readPointer, type SessionPointer } from "./pointer.ts";
import { processState, type ProcessState } from "./process.ts";
import { readState, type LastEvent, type LiveState } from "./state.ts";
import { listStates } from "./states.ts";
import { terminalText } from "../text/terminal.ts";

export type LiveStats = {
  tasks_completed: number;
  events_total: number;
  plan_steps_done: number;
  plan_steps_total: number;
  events_by_type: Record<string, number>;
};

export type LiveSnapshot = {
  ok: true;
  targetDir: string;
  dbPath: string;
  agent: string | null;
  tool: string | null;
  phase: string;
  open: boolean;
  processState: ProcessState;
  pid: number | null;
  sessionKey: string | null;
  startedAt: string | null;
  updatedAt: string | null;
  closedAt: string | null;
  title: string | null;
  currentTask: string | null;
  run: RunRow | null;
  task: TaskRow | null;
  stats: LiveStats;
  recentEvents: RecentEvent[];
  /** What the guards decided and injected in this session's harness sessions (store/guard-events.ts), oldest first. */
  guardEvents: GuardEvent[];
  contextEstimated: number | null;
  warning: string | null;
};

/**
 * A recent event of spec 11 (`{ts, type, summary}`). A recorded command that failed also carries `outcome: "failed"`
 * and its `exitCode` (null when the harness did not say): additive fields, on those events only, so that the text and
 * the JSON say the same thing.
 */
export type RecentEvent = LastEvent & { outcome?: "failed"; exitCode?: number | null };

export const DEFAULT_LIMIT = 8;
export const MAX_LIMIT = 20;

export const DEAD_PROCESS_WARNING =
  "Process is dead while the live session is still open. Close it manually with `aioson live:close . --status=failed`.";

const OPEN: ReadonlySet<string> = new Set(["running", "queued"]);

function newestLiveRun(db: Database, where: string, ...params: string[]): RunRow | null {
  const sql = `SELECT ${boundedColumns(db, "agent_runs")} FROM agent_runs WHERE source = 'live' ${where} ORDER BY agent_runs.started_at DESC, agent_runs.updated_at DESC LIMIT 1`;
  return (db.query(sql).get(...params) as RunRow | null) ?? null;
}

function liveRun(db: Database, runKey: string | null | undefined): RunRow | null {
  return runKey ? newestLiveRun(db, "AND run_key = ?", runKey) : null;
}

/** Spec 11 run resolution: pointer → state → session key → agent → newest overall. */
function resolveRun(db: Database, agent: string | null, pointer: SessionPointer | null, state: LiveState | null): RunRow | null {
  const sessionKey = pointer?.sessionKey ?? state?.session_key ?? null;
  return (
    liveRun(db, pointer?.runKey) ??
    liveRun(db, state?.current_run_key) ??
    (sessionKey ? newestLiveRun(db, "AND session_key = ?", sessionKey) : null) ??
    (agent ? newestLiveRun(db, "AND agent_name IN (?, ?)", agentHandle(agent), canonicalAgent(agent)) : null) ??
    (agent || sessionKey ? null : newestLiveRun(db, ""))
  );
}

type EventRow = { created_at: string; event_type: string; message: string; outcome: unknown; exit_code: unknown };

/** hooks:emit records a shell command as `step_done` with its verdict and exit code in the payload (spec 4.7). */
const COMMAND_EVENT = "step_done";

/** The event as spec 11 maps it, and for a command whose recorded outcome is `failed`, that and its exit code. */
export function recentEvent(row: EventRow): RecentEvent {
  const event = { ts: row.created_at, type: row.event_type, summary: row.message };
  if (row.event_type !== COMMAND_EVENT || row.outcome !== "failed") return event;
  // The payload was written by a hook in a project that may be hostile: only an integer is an exit code.
  return { ...event, outcome: "failed", exitCode: Number.isInteger(row.exit_code) ? (row.exit_code as number) : null };
}

/**
 * A run's newest rows through its index: `sequence_no` grows with `id` inside a run (spec 2.5). A command's outcome
 * is read in SQL, for its rows only (json_valid first: json_extract fails the query on a payload that does not parse).
 */
function dbEvents(db: Database, runKey: string, limit: number): RecentEvent[] {
  const commandOnly = (path: string) =>
    `CASE WHEN event_type = '${COMMAND_EVENT}' AND ${SIZE_OF}(payload_json) <= ${JSON_READ_MAX} AND json_valid(payload_json) THEN json_extract(payload_json, '${path}') END`;
  const rows = db
    .query(
      `SELECT created_at, event_type, ${within("message", TEXT_READ_MAX)} AS message, ${commandOnly("$.outcome")} AS outcome, ${commandOnly("$.exit_code")} AS exit_code
       FROM execution_events WHERE run_key = ? ORDER BY sequence_no DESC, id DESC LIMIT ?`,
    )
    .all(runKey, limit) as EventRow[];
  return rows.reverse().map(recentEvent);
}

function planTotals(task: TaskRow | null): { done: number; total: number } {
  const steps = parseJsonObject(task?.meta_json)?.plan_steps;
  if (!Array.isArray(steps)) return { done: 0, total: 0 };
  return { done: steps.filter((step) => (step as { done?: unknown } | null)?.done === true).length, total: steps.length };
}

/** Newest events of a run counted by type: a hooks session open for months holds a million. */
const STATS_WINDOW = 1_000;

/**
 * Stats of a session's run, from the store: `events_total` is the run's last sequence number (every event it
 * recorded, as state.json counts them, pruned ones included: one seek), `events_by_type` counts its newest
 * STATS_WINDOW events (all of them for a run below that).
 */
function dbStats(db: Database, run: RunRow | null, task: TaskRow | null): LiveStats {
  const byType: Record<string, number> = {};
  let total = 0;
  if (run) {
    const rows = db
      .query(`SELECT event_type, COUNT(*) AS n FROM (SELECT event_type FROM execution_events WHERE run_key = ? ORDER BY sequence_no DESC LIMIT ${STATS_WINDOW}) GROUP BY event_type`)
      .all(run.run_key) as Array<{ event_type: string; n: number }>;
    for (const row of rows) byType[row.event_type] = row.n;
    const last = db.query("SELECT sequence_no FROM execution_events WHERE run_key = ? ORDER BY sequence_no DESC LIMIT 1").get(run.run_key) as { sequence_no: number } | null;
    total = last?.sequence_no ?? 0;
  }
  const completed = task
    ? (db.query("SELECT COUNT(*) AS n FROM tasks WHERE parent_task_key = ? AND task_kind = 'micro_task' AND status = 'completed'").get(task.task_key) as { n: number }).n
    : 0;
  const plan = planTotals(task);
  return { tasks_completed: completed, events_total: total, plan_steps_done: plan.done, plan_steps_total: plan.total, events_by_type: byType };
}

function latestTokenCount(db: Database, run: RunRow | null): number | null {
  if (!run) return null;
  const row = db
    .query("SELECT token_count FROM execution_events WHERE run_key = ? AND token_count IS NOT NULL ORDER BY id DESC LIMIT 1")
    .get(run.run_key) as { token_count: number } | null;
  return row?.token_count ?? null;
}

function stringOrNull(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

export function liveSnapshot(db: Database, root: string, dbPath: string, agent: string | null, limit: number): LiveSnapshot {
  const pointer = agent ? readPointer(root, agent) : null;
  let state = agent ? (pointer?.sessionKey ? readState(root, pointer.sessionKey) : null) : (listStates(root)[0] ?? null);
  const run = resolveRun(db, agent, pointer, state);
  if (!state && run?.session_key) state = readState(root, run.session_key);
  const task = run?.task_key ? getTask(db, run.task_key) : null;
  const meta = parseJsonObject(task?.meta_json);
  const runOpen = run !== null && OPEN.has(run.status);
  const phase = state?.phase ?? (run ? (runOpen ? "active" : "closed") : "idle");
  const pid = state?.child_pid ?? (typeof meta?.child_pid === "number" ? meta.child_pid : null);
  const proc = processState(pid);
  const stateEvents = state?.last_events ?? [];
  return {
    ok: true,
    targetDir: root,
    dbPath,
    agent: agent ? agentHandle(agent) : (run?.agent_name ?? state?.active_agent ?? null),
    tool: state?.tool_session ?? stringOrNull(meta?.tool_session),
    phase,
    open: phase === "active" && runOpen,
    processState: proc,
    pid,
    sessionKey: state?.session_key ?? run?.session_key ?? null,
    startedAt: state?.started_at ?? run?.started_at ?? null,
    updatedAt: state?.updated_at ?? run?.updated_at ?? null,
    closedAt: state?.closed_at ?? (run && !runOpen ? run.finished_at : null),
    title: state?.title ?? task?.title ?? run?.title ?? null,
    currentTask: state?.current_task ?? null,
    run,
    task,
    // Counts and recent events come from the store whenever the session's run is known: state.json is a copy each
    // hook rewrites after its commit, and parallel hooks (Codex launches every matching handler at once) overwrite
    // each other's copies, so it can show fewer events than the store holds (issue 13).
    stats: state && !run ? { ...state.stats } : dbStats(db, run, task),
    recentEvents: run ? dbEvents(db, run.run_key, limit) : stateEvents,
    guardEvents: run ? runGuardEvents(db, run.run_key, limit) : [],
    contextEstimated: latestTokenCount(db, run),
    warning: proc === "dead" && phase === "active" ? DEAD_PROCESS_WARNING : null,
  };
}

function orDash(value: string | null | undefined): string {
  return value && value.trim() !== "" ? value : "-";
}

/** The default text layout of spec 11. */
export function formatLiveStatus(s: LiveSnapshot): string[] {
  const lines = [`Live session: ${s.sessionKey ?? "none"}`, `Phase: ${s.phase}`, `Tool: ${orDash(s.tool)}`, `Active agent: ${orDash(s.agent)}`];
  if (s.stats.plan_steps_total > 0) lines.push(`Plan: ${s.stats.plan_steps_done}/${s.stats.plan_steps_total}`);
  lines.push(`Process: ${s.processState}${s.pid !== null ? ` (pid ${s.pid})` : ""}`);
  if (s.task) lines.push(`Task: ${s.task.task_key} | status: ${s.task.status} | work: ${orDash(s.task.title)}`);
  if (s.run) lines.push(`Run: ${s.run.run_key} | status: ${s.run.status} | work: ${orDash(s.run.title ?? s.run.summary)}`);
  lines.push(`Started: ${orDash(s.startedAt)}`, `Updated: ${orDash(s.updatedAt)}`);
  if (s.closedAt) lines.push(`Closed: ${s.closedAt}`);
  if (s.warning) lines.push(`Warning: ${s.warning}`);
  if (s.recentEvents.length === 0) lines.push("Recent events: none");
  else {
    lines.push("Recent events:");
    for (const event of s.recentEvents) lines.push(`- ${event.ts} | ${event.type} | ${orDash(event.summary)}${failureText(event)}`);
  }
  if (s.guardEvents.length > 0) {
    lines.push("Guard events:");
    for (const event of s.guardEvents) lines.push(guardEventLine(event));
  }
  const nothing = nothingRecordedLine(s);
  if (nothing) lines.push(nothing);
  // Every value here comes from the store or state.json, written in a project that may be hostile.
  return lines.map(terminalText);
}

/**
 * A failed command's last column: the `✗` of every other failure line (output.ts colours it red on a terminal) and
 * words a script can match, `failed` and the exit code as the dashboard's digest writes it (`(exit 1)`).
 */
function failureText(event: RecentEvent): string {
  if (event.outcome !== "failed") return "";
  return ` | ✗ failed${event.exitCode === null || event.exitCode === undefined ? "" : ` (exit ${event.exitCode})`}`;
}

/**
 * What to do when there is nothing to show (a fresh project, right after `init`): no session and no run. With
 * `--agent`, it is that agent that has nothing recorded (another one may have).
 */
export function nothingRecordedLine(s: LiveSnapshot): string | null {
  if (s.sessionKey !== null || s.run !== null || s.recentEvents.length > 0) return null;
  return `Nothing recorded yet${s.agent ? ` for ${s.agent}` : ""}: start a session of your coding agent in this project, or run \`aioson hooks:doctor\` to check that the hooks fire.`;
}

function planText(s: LiveSnapshot): string {
  return s.stats.plan_steps_total > 0 ? `${s.stats.plan_steps_done}/${s.stats.plan_steps_total}` : "";
}

/** One line for a dashboard pane. */
export function formatCompact(s: LiveSnapshot): string {
  const last = s.recentEvents.at(-1);
  const parts = [orDash(s.agent), s.phase, s.sessionKey ?? "none", `events ${s.stats.events_total}`];
  const plan = planText(s);
  if (plan) parts.push(`plan ${plan}`);
  if (last) parts.push(`last ${last.type}: ${last.summary}`);
  return terminalText(parts.join(" | "));
}

/** A short status for a tmux status bar: `#` doubled, so a recorded phase cannot carry tmux's `#[style]` or `#(command)`. */
export function formatTmuxBar(s: LiveSnapshot): string {
  const plan = planText(s);
  return terminalText([`aioson ${orDash(s.agent)}`, s.phase, plan, s.processState === "dead" ? "dead" : ""].filter(Boolean).join(" ")).replaceAll("#", "##");
}
