/**
 * A recorded row as the timeline shows it: its kind (file change, command with its verdict, plan, compaction, prompt
 * activation, agent message, guard decision...) and one line of detail. Rows are untrusted: every payload field is
 * read with its type checked, texts are cut in SQL before they reach JavaScript, and a payload larger than
 * PAYLOAD_MAX is not read at all (the row still shows, with its message); nor is any text past its bound, whose size
 * SQLite reads from the record alone (store/bounded.ts).
 */
import { COMPACTION_CONFIRMED } from "../recap/markers.ts";
import { TEXT_READ_MAX, within } from "../store/bounded.ts";
import { parseJsonObject, type JsonObject } from "../store/records.ts";
import type { EventKind, ViewEvent } from "./api.ts";

/** Characters of a message sent to the page; hook messages are far shorter (spec 4.3), so only junk is cut. */
export const TEXT_MAX = 2_000;
/** Payloads above this size are shown without their details (hooks:emit's are a few hundred bytes). */
export const PAYLOAD_MAX = 64 * 1024;
const DETAIL_MAX = 400;

/** The columns every event read selects, in this order (see EventRow). */
export const EVENT_COLUMNS = `e.id, e.created_at, e.event_type, substr(${within("e.message", TEXT_READ_MAX)}, 1, ${TEXT_MAX}) AS message,
  ${within("e.run_key", TEXT_READ_MAX)} AS run_key, ${within("e.harness_session_id", TEXT_READ_MAX)} AS harness_session_id,
  ${within("e.agent_name", TEXT_READ_MAX)} AS agent_name, ${within("e.tool_name", TEXT_READ_MAX)} AS tool_name, ${within("e.payload_json", PAYLOAD_MAX)} AS payload_json`;

export type EventRow = {
  id: number;
  created_at: string;
  event_type: string;
  message: string | null;
  run_key: string | null;
  harness_session_id: string | null;
  agent_name: string | null;
  tool_name: string | null;
  payload_json: string | null;
};

function text(payload: JsonObject | null, key: string): string | null {
  const value = payload?.[key];
  return typeof value === "string" && value !== "" ? value : null;
}

function count(payload: JsonObject | null, key: string): number | null {
  const value = payload?.[key];
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function cut(value: string | null, max = DETAIL_MAX): string | null {
  return value === null ? null : value.length > max ? `${value.slice(0, max - 1)}…` : value;
}

const PLAN_TOOLS: ReadonlySet<string> = new Set(["TodoWrite", "update_plan"]);
const SESSION_TYPES: ReadonlySet<string> = new Set(["session_started", "session_ended", "session_closed", "agent_done", "start", "finished"]);
const VERDICTS: ReadonlySet<string> = new Set(["passed", "failed", "unknown"]);
const DECISIONS: ReadonlySet<string> = new Set(["deny", "ask", "block", "allow"]);

type Shaped = { kind: EventKind; verdict: string | null; detail: string | null };

function shape(type: string, payload: JsonObject | null): Shaped {
  switch (type) {
    case "artifact": {
      const op = text(payload, "op");
      const from = text(payload, "from");
      return { kind: "file", verdict: op, detail: from ? `moved from ${from}` : null };
    }
    case "step_done": {
      const outcome = text(payload, "outcome");
      const exit = count(payload, "exit_code");
      const parts = [exit === null ? null : `exit ${exit}`, text(payload, "summary"), text(payload, "error")].filter((part) => part !== null);
      return { kind: "command", verdict: outcome && VERDICTS.has(outcome) ? outcome : "unknown", detail: cut([...new Set(parts)].join(" — ") || null) };
    }
    case "compaction":
      return { kind: "compaction", verdict: text(payload, "trigger"), detail: payload?.needs_confirmation === true ? "waits for the harness to confirm it" : null };
    case COMPACTION_CONFIRMED:
      return { kind: "compaction", verdict: "confirmed", detail: text(payload, "via") };
    case "agent_activated":
      return { kind: "activation", verdict: text(payload, "via"), detail: null };
    case "agent_message":
      return { kind: "message", verdict: null, detail: null };
    case "guard_decision": {
      const decision = text(payload, "decision");
      const guard = text(payload, "guard");
      const reason = text(payload, "reason");
      return { kind: "guard", verdict: decision && DECISIONS.has(decision) ? decision : "decision", detail: cut([guard, reason].filter((p) => p !== null).join(": ") || null) };
    }
    case "guard_injected": {
      const rules = Array.isArray(payload?.rules) ? payload.rules.filter((rule): rule is string => typeof rule === "string") : [];
      return { kind: "guard", verdict: "injected", detail: cut(rules.join(", ") || null) };
    }
    case "note": {
      const tool = text(payload, "tool");
      if (tool && PLAN_TOOLS.has(tool)) {
        const done = count(payload, "done");
        const total = count(payload, "total");
        return { kind: "plan", verdict: null, detail: done !== null && total !== null ? `${done} of ${total} done` : null };
      }
      return { kind: "note", verdict: null, detail: null };
    }
    default:
      return { kind: SESSION_TYPES.has(type) ? "session" : "note", verdict: null, detail: null };
  }
}

export function viewEvent(row: EventRow): ViewEvent {
  const payload = parseJsonObject(row.payload_json);
  const shaped = shape(row.event_type, payload);
  return {
    id: row.id,
    ts: row.created_at,
    type: row.event_type,
    kind: shaped.kind,
    text: row.message ?? "",
    run: row.run_key,
    session: row.harness_session_id,
    agent: row.agent_name,
    tool: row.tool_name,
    verdict: shaped.verdict,
    detail: shaped.detail,
  };
}
