/**
 * Spec 5.5: the recorded facts of a checkpoint, derived from event rows (never from the model).
 * Where the session *is* (agent, plan, failures, last test, notes) is read over the whole-session
 * window W; what the summary lost (files, last message) over the span P since the previous
 * compaction. Items come back raw: the layout sanitizes them (withheld items are dropped before caps).
 */
import { agentOption } from "../core/agent.ts";
import { parseJsonObject, type JsonObject } from "../store/records.ts";
import { HOOKS_MARK, PLAN_TOOL_NAMES } from "../store/event-indexes.ts";
import { BOOKKEEPING, type EventRow, type RecapRows } from "./rows.ts";

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
  /**
   * Items of the failing commands and files past `failing` and `files` that may be withheld, when those were read
   * only as far as the checkpoint shows them (rows.ts `Listed`): the layout counts the ones it withholds.
   */
  unlisted: { failing: string[]; files: string[] };
};

/*
 * Payload readers. Recorded payloads are untrusted JSON: every field is read with its type checked
 * and anything else counts as absent. Plain functions rather than schemas because this runs on up to
 * a few hundred rows on a hook's critical path, where a schema library's first use costs more.
 */
function text(payload: JsonObject | null, key: string): string | undefined {
  const value = payload?.[key];
  return typeof value === "string" ? value : undefined;
}

function integer(payload: JsonObject | null, key: string): number | undefined {
  const value = payload?.[key];
  return typeof value === "number" && Number.isInteger(value) ? value : undefined;
}

function objectItems(payload: JsonObject | null, key: string): JsonObject[] {
  const value = payload?.[key];
  if (!Array.isArray(value)) return [];
  return value.filter((item): item is JsonObject => item !== null && typeof item === "object" && !Array.isArray(item));
}

const PLAN_TOOLS: ReadonlySet<string> = new Set(PLAN_TOOL_NAMES);

/** A row's payload, parsed at most once however many facts look at it. */
class RowPayload {
  #parsed: JsonObject | null | undefined;
  constructor(readonly row: EventRow) {}

  get object(): JsonObject | null {
    if (this.#parsed === undefined) this.#parsed = parseJsonObject(this.row.payload_json);
    return this.#parsed;
  }

  get writtenByHooks(): boolean {
    return this.row.payload_json?.includes(HOOKS_MARK) === true;
  }
}

/** Already normalized: words with single spaces between them and none at either end. */
const NORMAL_COMMAND = /^\S+(?: \S+)*$/;

export function normalizeCommand(command: string): string {
  // Most recorded commands are already normal: testing is cheaper than rebuilding the string.
  return NORMAL_COMMAND.test(command) ? command : command.trim().replace(/\s+/g, " ");
}

/** The command of a `step_done` row: the payload, else its `$ <command>` message. */
function stepCommand(row: EventRow, payload: JsonObject | null): string {
  const command = text(payload, "command");
  if (command) return normalizeCommand(command);
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

/** Items of `todos` (TodoWrite `content`, update_plan `step`, else `title`) and the done/total counts. */
export function planFromPayload(payload: JsonObject): Plan {
  const items: PlanItem[] = [];
  for (const item of objectItems(payload, "todos")) {
    const content = text(item, "content") ?? text(item, "step") ?? text(item, "title");
    if (content !== undefined) items.push({ content, status: planStatus(text(item, "status")) });
  }
  const done = integer(payload, "done") ?? items.filter((item) => item.status === "completed").length;
  const total = integer(payload, "total") ?? items.length;
  return { done, total, items };
}

/** Newest-first scan of W for the whole-session facts. */
function wholeSessionFacts(window: readonly EventRow[], stepsFrom: number): Omit<Facts, "files" | "lastMessage" | "unlisted"> {
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
          // The same validation as an `--agent` value: a corrupt id falls back to an older activation.
          const agent = agentOption(text(payload.object, "agent"), "");
          if (agent) {
            activatedAgent = agent;
            agentSeen = true;
          }
        }
        break;
      case "step_done": {
        // Older rows were not all read: one of them may be the older of two rows of a command (rows.ts `Listed`).
        if (row.id < stepsFrom) break;
        const step = payload.object;
        const outcome = text(step, "outcome");
        if (!conclusive(outcome)) break;
        const command = stepCommand(row, step);
        if (!command) break;
        if (!lastTest && step?.test_runner === true) {
          lastTest = { outcome, command, summary: text(step, "summary")?.trim() || null };
        }
        if (decided.has(command)) break;
        decided.add(command);
        if (outcome === "failed") failing.push({ command, exitCode: integer(step, "exit_code") ?? null });
        break;
      }
      case "note":
        if (!plan) {
          const note = payload.object;
          const tool = text(note, "tool");
          if (note && tool && PLAN_TOOLS.has(tool)) plan = planFromPayload(note);
        }
        break;
    }
    if (notes.length < 3 && !BOOKKEEPING.has(row.event_type) && !payload.writtenByHooks) {
      notes.push({ type: row.event_type, message: row.message });
    }
  }
  return { activatedAgent, failing, lastTest, plan, notes };
}

/** Newest-first scan of P (rows after the boundary) for what the summary lost. */
function spanFacts(window: readonly EventRow[], boundary: number, filesFrom: number): Pick<Facts, "files" | "lastMessage"> {
  const files: string[] = [];
  const seen = new Set<string>();
  let lastMessage: string | null = null;
  for (let i = window.length - 1; i >= 0; i--) {
    const row = window[i] as EventRow;
    if (row.id <= boundary) break;
    if (row.event_type === "artifact") {
      if (row.id < filesFrom) continue;
      const file = text(new RowPayload(row).object, "file");
      if (file && !seen.has(file)) {
        seen.add(file);
        files.push(file);
      }
    } else if (row.event_type === "agent_message" && lastMessage === null) {
      const message = text(new RowPayload(row).object, "text") ?? row.message;
      if (message.trim()) lastMessage = message;
    }
  }
  return { files, lastMessage };
}

const NONE_UNLISTED: Facts["unlisted"] = { failing: [], files: [] };

/**
 * The failing commands and files of `withheld` (the rows of W and P that may carry a withheld item) not in the lists
 * read. Every row of a withheld item is among them, so each withheld command is decided as the whole window decides
 * it, and each withheld file is in P as it is in the whole span; what else they give is never withheld.
 */
function unlistedItems(withheld: readonly EventRow[], boundary: number, failing: readonly FailingCommand[], files: readonly string[]): Facts["unlisted"] {
  if (withheld.length === 0) return NONE_UNLISTED;
  const listedCommands = new Set(failing.map((item) => item.command));
  const listedFiles = new Set(files);
  return {
    failing: wholeSessionFacts(withheld, 0).failing.map((item) => item.command).filter((command) => !listedCommands.has(command)),
    files: spanFacts(withheld, boundary, 0).files.filter((file) => !listedFiles.has(file)),
  };
}

export function deriveFacts(rows: RecapRows): Facts {
  const listed = rows.listed;
  const whole = wholeSessionFacts(rows.window, listed?.stepsFrom ?? 0);
  const span = spanFacts(rows.window, rows.boundary, listed?.filesFrom ?? 0);
  const unlisted = listed ? unlistedItems(listed.withheld, rows.boundary, whole.failing, span.files) : NONE_UNLISTED;
  return { ...whole, ...span, unlisted };
}
