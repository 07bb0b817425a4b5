/**
 * Seeds a project's store with exactly the rows `hooks:emit` writes (spec 4.3–4.13), through the
 * store and session foundation, so hooks:recap can be tested through the real binary without
 * depending on hooks:emit. hooks-recap.test.ts checks it row for row against the real binary.
 * Also loads the JSON scenario fixtures of test/fixtures/recap*.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Database } from "bun:sqlite";
import type { EventRow } from "../src/recap/rows.ts";
import { closeStore, openStore, withStoreTransaction, type Store } from "../src/store/db.ts";
import { appendRunEvent, startRun, startTask, type JsonObject } from "../src/store/records.ts";
import { closeSessionRows, createSessionRows } from "../src/session/sessions.ts";
import { redactDeep, redactSecrets } from "../src/text/redact.ts";

export type PlanEntry = readonly [content: string, status: string];

export type BashOutcome = {
  outcome: "passed" | "failed" | "unknown";
  exitCode?: number | null;
  testRunner?: boolean;
  summary?: string;
  error?: string;
};

/** The rows hooks:emit would write for one agent's hooks session in one project. */
export class HooksRecorder {
  readonly store: Store;
  runKey: string | null = null;

  constructor(
    readonly root: string,
    readonly agent = "dev",
    readonly source = "claude",
    /** Off: store strings exactly as given (rows written before redaction existed). */
    readonly redact = true,
  ) {
    const store = openStore(root);
    if (!store) throw new Error("store not opened");
    // Seeding speed only (a thousand-event scenario commits a thousand times); rows are unchanged.
    store.db.exec("PRAGMA synchronous = OFF");
    this.store = store;
  }

  get db(): Database {
    return this.store.db;
  }

  close(): void {
    closeStore(this.store);
  }

  /** Spec 4.13: the first event of an agent without an open session auto-starts one. */
  private ensureSession(harnessSessionId: string | null): string {
    if (this.runKey) return this.runKey;
    const at = new Date().toISOString();
    const session = createSessionRows(this.db, {
      owner: "hooks",
      agent: this.agent,
      tool: this.source,
      root: this.root,
      sessionKey: `hooks-${this.agent}-${Date.parse(at)}`,
      title: `[hooks] ${this.agent} via ${this.source}`,
      startedMessage: `Auto-started by hooks:emit (${this.source})`,
      meta: { auto_started: true },
      firstEventPayload: {
        tool_session: this.source,
        path: this.root,
        hooks_version: "1",
        written_by: "hooks:emit",
        ...(harnessSessionId ? { harness_session_id: harnessSessionId } : {}),
      },
      harnessSessionId,
      at,
    });
    this.runKey = session.runKey;
    return session.runKey;
  }

  /** A `live:start` session the hooks adopt from now on (spec 2.6 step 2/3). */
  liveStart(): string {
    const at = new Date().toISOString();
    withStoreTransaction(this.store, () => {
      const session = createSessionRows(this.db, {
        owner: "live",
        agent: this.agent,
        tool: this.source,
        root: this.root,
        sessionKey: `direct-session:${Date.parse(at)}:${this.agent}`,
        title: `[live] ${this.agent}`,
        startedMessage: `Live session started for @${this.agent}`,
        at,
      });
      this.runKey = session.runKey;
    });
    return this.runKey as string;
  }

  private text(value: string): string {
    return this.redact ? redactSecrets(value) : value;
  }

  /** One record, appended like hooks:emit step 6 (phase live, status running, ids on row and payload). */
  record(harnessSessionId: string | null, eventType: string, message: string, toolName: string | null, payload: JsonObject): number {
    return withStoreTransaction(this.store, () => {
      const runKey = this.ensureSession(harnessSessionId);
      // The key order of hooks:emit too: recap scans payload text (see src/recap/rows.ts).
      const full: JsonObject = {
        ...(this.redact ? redactDeep(payload) : payload),
        written_by: "hooks:emit",
        ...(harnessSessionId ? { harness_session_id: harnessSessionId } : {}),
      };
      return appendRunEvent(this.db, runKey, {
        eventType,
        message: this.text(message),
        phase: "live",
        status: "running",
        toolName,
        payload: full,
        harnessSessionId,
      }).id;
    });
  }

  /** Write/Edit/MultiEdit/NotebookEdit → `artifact` `<Tool>: <path>`. */
  write(sid: string | null, file: string, tool = "Write"): number {
    return this.record(sid, "artifact", `${tool}: ${file}`, tool, { tool, file });
  }

  /** apply_patch → one `artifact` per file, all in one transaction. */
  patch(sid: string | null, entries: ReadonlyArray<{ file: string; op?: "add" | "update" | "move"; from?: string }>): void {
    for (const entry of entries) {
      const payload: JsonObject = { tool: "apply_patch", file: entry.file, op: entry.op ?? "update" };
      if (entry.from) payload.from = entry.from;
      this.record(sid, "artifact", `apply_patch: ${entry.file}`, "apply_patch", payload);
    }
  }

  /** Bash → `step_done` `$ <first 80 chars>`. */
  bash(sid: string | null, command: string, result: BashOutcome): number {
    const trimmed = command.trim();
    const payload: JsonObject = {
      tool: "Bash",
      command: trimmed.slice(0, 2_000),
      outcome: result.outcome,
      exit_code: result.exitCode ?? null,
      test_runner: result.testRunner ?? false,
    };
    if (result.summary) payload.summary = result.summary.slice(0, 200);
    if (result.error && result.outcome === "failed") payload.error = result.error.slice(0, 500);
    return this.record(sid, "step_done", trimmed ? `$ ${trimmed.slice(0, 80)}` : "Bash", "Bash", payload);
  }

  /** TodoWrite / update_plan → `note` `Task list updated`. */
  plan(sid: string | null, items: readonly PlanEntry[], tool: "TodoWrite" | "update_plan" = "TodoWrite"): number {
    const todos = items.slice(0, 50).map(([content, status]) => ({ content: content.slice(0, 200), status }));
    const done = todos.filter((todo) => todo.status === "completed").length;
    return this.record(sid, "note", "Task list updated", tool, {
      tool,
      todos,
      done,
      total: todos.length,
      summary: `Tasks: ${done} of ${todos.length} done`,
    });
  }

  /** Task → `note` with the description. */
  task(sid: string | null, description: string, subagentType = "general-purpose"): number {
    return this.record(sid, "note", description.slice(0, 80) || "Task launched", "Task", { tool: "Task", subagent_type: subagentType });
  }

  /** Prompt or Skill activation → `agent_activated`. */
  activate(sid: string | null, agent: string, via: "prompt" | "skill" = "prompt"): number {
    return this.record(sid, "agent_activated", `Agent activated: @${agent}`, via === "skill" ? "Skill" : null, { agent, via });
  }

  /** Stop → `agent_message`. */
  stop(sid: string | null, text: string): number {
    const capped = text.length > 8_000 ? `${text.slice(0, 8_000)}…[truncated]` : text;
    return this.record(sid, "agent_message", text.replace(/\s+/g, " ").trim().slice(0, 200), null, { text: capped });
  }

  /** PreCompact → `compaction`; Claude Code's marker (with a session id) waits for its confirmation (src/recap/markers.ts). */
  compact(sid: string | null, trigger = "auto"): number {
    return this.record(sid, "compaction", `Compaction (${trigger})`, null, this.source === "claude" && sid ? { trigger, needs_confirmation: true } : { trigger });
  }

  /** A compaction that happened: the marker, then the confirmation its SessionStart(compact) recap writes. */
  compacted(sid: string, trigger = "auto"): number {
    const marker = this.compact(sid, trigger);
    this.confirm(sid, marker);
    return marker;
  }

  /** Id of the session's newest compaction marker (0 when none). */
  lastMarker(sid: string): number {
    const row = this.db.query("SELECT id FROM execution_events WHERE harness_session_id = ? AND event_type = 'compaction' ORDER BY id DESC LIMIT 1").get(sid) as { id: number } | null;
    return row?.id ?? 0;
  }

  /** The SessionStart(compact) recap confirms the newest marker: the row hooks:recap writes. */
  confirm(sid: string, marker: number): number {
    return withStoreTransaction(this.store, () =>
      appendRunEvent(this.db, this.ensureSession(sid), {
        eventType: "compaction_confirmed",
        message: "Compaction confirmed (SessionStart)",
        phase: "live",
        payload: { via: "SessionStart", marker, written_by: "hooks:recap", harness_session_id: sid },
        harnessSessionId: sid,
      }).id,
    );
  }

  /** `--then=agent:done` → `agent_done` in the same run. */
  agentDone(sid: string | null): number {
    return this.record(sid, "agent_done", `Session ended via ${this.agent} hook`, null, {});
  }

  /** `--event=SessionEnd` on a hooks session: `session_ended`, then the session is closed. */
  end(sid: string | null): void {
    this.record(sid, "session_ended", `Session ended (${this.source})`, null, { reason: null });
    const runKey = this.runKey as string;
    withStoreTransaction(this.store, () => closeSessionRows(this.db, { runKey, summary: `Closed by SessionEnd (${this.source})` }));
    this.runKey = null;
  }

  /** `runtime:emit` into the active session: live shape, no harness id, no `written_by`. */
  runtime(type: string, summary: string, meta: JsonObject = {}): number {
    return withStoreTransaction(this.store, () => {
      const runKey = this.ensureSession(null);
      return appendRunEvent(this.db, runKey, { eventType: type, message: summary, phase: "live", payload: { ...meta, refs: [], used_skills: [] } }).id;
    });
  }

  /** A `source='direct'` run of an official agent (agent:done standalone) holding artifact rows. */
  directRun(agent: string, sid: string | null, files: readonly string[]): void {
    withStoreTransaction(this.store, () => {
      const taskKey = startTask(this.db, { title: `agent:done @${agent}`, status: "completed", taskKind: "runtime_event" });
      const { runKey } = startRun(this.db, { taskKey, agentName: `@${agent}`, source: "direct", status: "completed" });
      for (const file of files) {
        appendRunEvent(this.db, runKey, {
          eventType: "artifact",
          message: `Write: ${file}`,
          phase: "direct",
          payload: { file, ...(sid ? { harness_session_id: sid } : {}) },
          harnessSessionId: sid,
        });
      }
    });
  }
}

/** Writes files into a project (paths relative to its root). */
export function writeProjectFiles(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

// ---- JSON scenarios (test/fixtures/recap/*.json, test/fixtures/recap-adversarial/*.json) ----

/** One recorded event; `s` is the harness session id (null: a row recorded without one). */
export type ScenarioEvent =
  | { s?: string | null; write: string; tool?: string }
  | { s?: string | null; patch: Array<{ file: string; op?: "add" | "update" | "move"; from?: string }> }
  | { s?: string | null; bash: string; outcome: "passed" | "failed" | "unknown"; exit?: number | null; test?: boolean; summary?: string; error?: string }
  | { s?: string | null; plan: PlanEntry[]; tool?: "TodoWrite" | "update_plan" }
  | { s?: string | null; task: string }
  | { s?: string | null; activate: string; via?: "prompt" | "skill" }
  | { s?: string | null; stop: string }
  | { s?: string | null; compact: string }
  /** The SessionStart(compact) recap that confirms the session's newest marker. */
  | { s: string; confirm: true }
  | { s?: string | null; agentDone: true }
  | { s?: string | null; end: true }
  | { runtime: string; summary: string }
  | { liveStart: true }
  | { directRun: string; s?: string | null; files: string[] }
  | { repeat: number; event: ScenarioEvent };

export type Scenario = {
  title: string;
  /** Install agent the hooks record for (default dev). */
  agent?: string;
  /** Harness the hooks record (default claude). */
  source?: string;
  /** Store strings unredacted, as rows recorded before redaction existed. */
  unredacted?: boolean;
  files?: Record<string, string>;
  events: ScenarioEvent[];
  recap: { args: string[]; stdin?: unknown };
  /** Substrings the checkpoint must never contain (hostile content). */
  mustNotContain?: string[];
  /** Substrings the checkpoint must contain (useful facts that must survive). */
  mustContain?: string[];
};

/** `{i}` in any string of an event becomes the repetition index. */
function substitute<T>(value: T, index: number): T {
  if (typeof value === "string") return value.replaceAll("{i}", String(index)) as T;
  if (Array.isArray(value)) return value.map((item) => substitute(item, index)) as T;
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substitute(item, index)])) as T;
  }
  return value;
}

function replay(recorder: HooksRecorder, event: ScenarioEvent): void {
  if ("repeat" in event) {
    for (let i = 0; i < event.repeat; i++) replay(recorder, substitute(event.event, i));
    return;
  }
  if ("runtime" in event) {
    recorder.runtime(event.runtime, event.summary);
    return;
  }
  if ("liveStart" in event) {
    recorder.liveStart();
    return;
  }
  const sid = event.s === undefined ? null : event.s;
  if ("directRun" in event) recorder.directRun(event.directRun, sid, event.files);
  else if ("write" in event) recorder.write(sid, event.write, event.tool);
  else if ("patch" in event) recorder.patch(sid, event.patch);
  else if ("bash" in event) {
    recorder.bash(sid, event.bash, { outcome: event.outcome, exitCode: event.exit, testRunner: event.test, summary: event.summary, error: event.error });
  } else if ("plan" in event) recorder.plan(sid, event.plan, event.tool);
  else if ("task" in event) recorder.task(sid, event.task);
  else if ("activate" in event) recorder.activate(sid, event.activate, event.via);
  else if ("stop" in event) recorder.stop(sid, event.stop);
  else if ("compact" in event) recorder.compact(sid, event.compact);
  else if ("confirm" in event) recorder.confirm(event.s, recorder.lastMarker(event.s));
  else if ("agentDone" in event) recorder.agentDone(sid);
  else if ("end" in event) recorder.end(sid);
}

export function loadScenario(path: string): Scenario {
  return JSON.parse(readFileSync(path, "utf8")) as Scenario;
}

/** Records a scenario's events into `root` (files first). */
export function seedScenario(root: string, scenario: Scenario): void {
  if (scenario.files) writeProjectFiles(root, scenario.files);
  const recorder = new HooksRecorder(root, scenario.agent ?? "dev", scenario.source ?? "claude", !scenario.unredacted);
  try {
    for (const event of scenario.events) replay(recorder, event);
  } finally {
    recorder.close();
  }
}

/** The checkpoint text out of a recap run's stdout (JSON envelope or plain text). */
export function checkpointText(stdout: string, json: boolean): string {
  if (!json) return stdout.endsWith("\n") ? stdout.slice(0, -1) : stdout;
  const value = JSON.parse(stdout) as { additionalContext?: string; hookSpecificOutput?: { additionalContext?: string } };
  return value.hookSpecificOutput?.additionalContext ?? value.additionalContext ?? "";
}

const WINDOW_COLUMNS = "e.id, e.run_key, e.event_type, e.message, e.payload_json, e.harness_session_id";

/**
 * The markers that count, the slow obvious way: a marker without `needs_confirmation` counts; one with it counts when
 * a `compaction_confirmed` row comes before the next marker, or when it is the newest marker.
 */
function countedMarkerIds(rows: readonly EventRow[]): number[] {
  const markers = rows.filter((row) => row.event_type === "compaction");
  return markers
    .filter((marker, index) => {
      if (!marker.payload_json?.includes('"needs_confirmation":true')) return true;
      const next = markers[index + 1];
      if (!next) return true;
      return rows.some((row) => row.event_type === "compaction_confirmed" && row.id > marker.id && row.id < next.id);
    })
    .map((marker) => marker.id);
}

/** Spec 5.4 W, read the slow obvious way. */
export function fullWindow(db: Database, session: string): { window: EventRow[]; boundary: number } {
  const rowsS = db
    .query(`SELECT ${WINDOW_COLUMNS} FROM execution_events e JOIN agent_runs r ON r.run_key = e.run_key WHERE e.harness_session_id = ? AND r.source = 'live' ORDER BY e.id`)
    .all(session) as EventRow[];
  const runKey = rowsS.at(-1)?.run_key as string;
  const markers = countedMarkerIds(rowsS);
  const boundary = markers.length >= 2 ? (markers.at(-2) as number) : 0;
  const first = rowsS.find((row) => row.run_key === runKey)?.id as number;
  const unlabelled = db
    .query(`SELECT ${WINDOW_COLUMNS} FROM execution_events e WHERE e.run_key = ? AND e.harness_session_id IS NULL AND e.id > ? ORDER BY e.id`)
    .all(runKey, Math.max(boundary, first - 1)) as EventRow[];
  return { window: [...rowsS, ...unlabelled].sort((a, b) => a.id - b.id), boundary };
}

/** A deterministic integer source (mulberry32): `random(seed)(n)` is in [0, n), the same sequence for a seed, so a failing seed replays. */
export function random(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) % 1_000_000) % n;
  };
}
