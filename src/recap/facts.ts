/**
 * Spec 5.5: the recorded facts of a checkpoint, derived from event rows (never from the model).
 * Where the session *is* (agent, plan, failures, last test, notes) is read over the whole-session
 * window W; what the summary lost (files, last message) over the span P since the previous
 * compaction. Items come back raw: the layout sanitizes them (withheld items are dropped before caps).
 */
import * as v from "valibot";
import { canonicalAgent } from "../core/agent.ts";
import { parseJsonObject, type JsonObject } from "../store/records.ts";
import type { EventRow, RecapRows } from "./rows.ts";

export type PlanStatus = "completed" | "in_progress" | "pending";
export type PlanItem = { content: string; status: PlanStatus };
export type Plan = { done: number; total: number; items: PlanItem[] };
export type FailingCommand = { command: string; exitCode: number | null };
export type TestResult = { outcome: "passed" | "failed"; command: string; summary: string | null };
export type ContinuityNote = { type: string; message: string };

export type Facts = {
  /** Canonical id of the last activated agent, null when none was recorded. */
  activatedAgent: string | null;
  /** Distinct files, most recent first (uncapped). */
  files: string[];
  /** Commands whose latest conclusive outcome is `failed`, most recent first (uncapped). */
  failing: FailingCommand[];
  lastTest: TestResult | null;
  plan: Plan | null;
  /** At most 3, most recent first. */
  notes: ContinuityNote[];
  lastMessage: string | null;
};

const str = v.fallback(v.optional(v.string()), undefined);
const int = v.fallback(v.optional(v.nullable(v.pipe(v.number(), v.integer()))), undefined);
const bool = v.fallback(v.optional(v.boolean()), undefined);

const ArtifactPayload = v.looseObject({ file: str });
const StepPayload = v.looseObject({ command: str, outcome: str, exit_code: int, test_runner: bool, summary: str });
const TodoItem = v.looseObject({ content: str, step: str, title: str, status: str });
const PlanPayload = v.looseObject({
  tool: str,
  todos: v.fallback(v.optional(v.array(v.unknown())), undefined),
  done: int,
  total: int,
});
const ActivationPayload = v.looseObject({ agent: str });
const MessagePayload = v.looseObject({ text: str });

const PLAN_TOOLS: ReadonlySet<string> = new Set(["TodoWrite", "update_plan"]);
const AGENT_ID = /^[a-z0-9][a-z0-9-]*$/;

/** Session bookkeeping, never a continuity note. */
const NOT_NOTES: ReadonlySet<string> = new Set([
  "session_started", "session_ended", "session_closed", "agent_done", "compaction", "start", "update", "finished",
]);

/** Cheap pre-check before parsing: any JSON spelling of the pair matches this. */
const HOOKS_MARK = /"written_by"\s*:\s*"hooks:emit"/;

/** A row's payload, parsed at most once however many facts look at it. */
class RowPayload {
  #parsed: JsonObject | null | undefined;
  constructor(readonly row: EventRow) {}

  get object(): JsonObject | null {
    if (this.#parsed === undefined) this.#parsed = parseJsonObject(this.row.payload_json);
    return this.#parsed;
  }

  as<TSchema extends v.GenericSchema>(schema: TSchema): v.InferOutput<TSchema> | null {
    const object = this.object;
    return object ? v.parse(schema, object) : null;
  }

  get writtenByHooks(): boolean {
    return this.row.payload_json !== null && HOOKS_MARK.test(this.row.payload_json) && this.object?.written_by === "hooks:emit";
  }
}

export function normalizeCommand(command: string): string {
  return command.trim().replace(/\s+/g, " ");
}

/** The command of a `step_done` row: the payload, else its `$ <command>` message. */
function stepCommand(row: EventRow, payload: v.InferOutput<typeof StepPayload> | null): string {
  if (payload?.command) return normalizeCommand(payload.command);
  return row.message.startsWith("$ ") ? normalizeCommand(row.message.slice(2)) : "";
}

function conclusive(outcome: string | undefined): outcome is "passed" | "failed" {
  return outcome === "passed" || outcome === "failed";
}

export function planStatus(status: string | undefined): PlanStatus {
  const value = (status ?? "").trim().toLowerCase();
  if (value === "completed" || value === "complete" || value === "done") return "completed";
  if (value === "in_progress" || value === "in-progress" || value === "active") return "in_progress";
  return "pending";
}

export function planFromPayload(payload: v.InferOutput<typeof PlanPayload>): Plan {
  const items: PlanItem[] = [];
  for (const raw of payload.todos ?? []) {
    const item = v.parse(TodoItem, raw !== null && typeof raw === "object" ? raw : {});
    const content = item.content ?? item.step ?? item.title;
    if (content !== undefined) items.push({ content, status: planStatus(item.status) });
  }
  const done = payload.done ?? items.filter((item) => item.status === "completed").length;
  const total = payload.total ?? items.length;
  return { done, total, items };
}

/** Newest-first scan of W for the whole-session facts. */
function wholeSessionFacts(window: readonly EventRow[]): Omit<Facts, "files" | "lastMessage"> {
  let activatedAgent: string | null = null;
  let agentSeen = false;
  let lastTest: TestResult | null = null;
  let plan: Plan | null = null;
  const notes: ContinuityNote[] = [];
  const decided = new Set<string>();
  const failing: FailingCommand[] = [];

  for (let i = window.length - 1; i >= 0; i--) {
    const row = window[i] as EventRow;
    const payload = new RowPayload(row);
    switch (row.event_type) {
      case "agent_activated":
        if (!agentSeen) {
          const agent = canonicalAgent(payload.as(ActivationPayload)?.agent ?? "");
          if (AGENT_ID.test(agent)) {
            activatedAgent = agent;
            agentSeen = true;
          }
        }
        break;
      case "step_done": {
        const step = payload.as(StepPayload);
        if (!conclusive(step?.outcome)) break;
        const command = stepCommand(row, step);
        if (!command) break;
        if (!lastTest && step.test_runner === true) {
          lastTest = { outcome: step.outcome, command, summary: step.summary?.trim() || null };
        }
        if (decided.has(command)) break;
        decided.add(command);
        if (step.outcome === "failed") failing.push({ command, exitCode: step.exit_code ?? null });
        break;
      }
      case "note":
        if (!plan) {
          const note = payload.as(PlanPayload);
          if (note?.tool && PLAN_TOOLS.has(note.tool)) plan = planFromPayload(note);
        }
        break;
    }
    if (notes.length < 3 && !NOT_NOTES.has(row.event_type) && !payload.writtenByHooks) {
      notes.push({ type: row.event_type, message: row.message });
    }
  }
  return { activatedAgent, failing, lastTest, plan, notes };
}

/** Newest-first scan of P (rows after the boundary) for what the summary lost. */
function spanFacts(window: readonly EventRow[], boundary: number): Pick<Facts, "files" | "lastMessage"> {
  const files: string[] = [];
  const seen = new Set<string>();
  let lastMessage: string | null = null;
  for (let i = window.length - 1; i >= 0; i--) {
    const row = window[i] as EventRow;
    if (row.id <= boundary) break;
    if (row.event_type === "artifact") {
      const file = new RowPayload(row).as(ArtifactPayload)?.file;
      if (file && !seen.has(file)) {
        seen.add(file);
        files.push(file);
      }
    } else if (row.event_type === "agent_message" && lastMessage === null) {
      const text = new RowPayload(row).as(MessagePayload)?.text ?? row.message;
      if (text.trim()) lastMessage = text;
    }
  }
  return { files, lastMessage };
}

export function deriveFacts(rows: RecapRows): Facts {
  return { ...wholeSessionFacts(rows.window), ...spanFacts(rows.window, rows.boundary) };
}
