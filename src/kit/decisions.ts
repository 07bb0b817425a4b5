/**
 * What the guards decided, where a person can look: every deny, ask and block of the guard kit (and a
 * `context:guard` deny) is one standalone `execution_events` row, `event_type = 'guard_decision'`, in a store that
 * already exists (a guard never creates one; spec 2.2 for standalone telemetry). The dashboard and the OTLP exporter
 * read these rows; `live:status` and `runtime:status` show them.
 *
 * Payload: `guard`, `decision` (`deny` | `ask` | `block`), `reason` (sanitised and redacted: reasons quote what
 * the model wrote, a commit message for one), `harness`, `tool` when there is one, `written_by: "guard:<name>"`,
 * `harness_session_id` (also on the row) when the payload has a session id; callers may add more.
 */
import { sanitizeItem } from "../text/sanitize.ts";
import { recordStandaloneEvent } from "../store/telemetry.ts";

export type GuardVerdict = "deny" | "ask" | "block";

export type GuardDecisionRecord = {
  /** `pre-commit-guard`, `verify-claims`, …, or `context:guard`. */
  guard: string;
  decision: GuardVerdict;
  reason: string;
  harness: string;
  tool: string | null;
  sessionId: string | null;
  agent: string | null;
  extra?: Record<string, unknown>;
};

const REASON_MAX = 2_000;
const MESSAGE_REASON_MAX = 160;

/** The reason as it may be shown and stored: one line, hidden characters and secrets gone, injections withheld. */
export function storedReason(reason: string): string {
  const sanitized = sanitizeItem(reason);
  if (sanitized.kind === "withheld") return "(reason withheld: it reads like instructions to an AI)";
  if (sanitized.kind === "empty") return "";
  return sanitized.text.length > REASON_MAX ? `${sanitized.text.slice(0, REASON_MAX - 1)}…` : sanitized.text;
}

/** The row's name for a guard: `guard:<name>` for the kit, the command itself for `context:guard`. */
function writer(guard: string): string {
  return guard.includes(":") ? guard : `guard:${guard}`;
}

/** Records one decision; never throws and never changes what the guard answers. */
export function recordGuardDecision(root: string, record: GuardDecisionRecord): boolean {
  const reason = storedReason(record.reason);
  const short = reason.length > MESSAGE_REASON_MAX ? `${reason.slice(0, MESSAGE_REASON_MAX - 1)}…` : reason;
  return recordStandaloneEvent(root, {
    source: "guard",
    phase: "guard",
    eventType: "guard_decision",
    agentName: record.agent,
    message: `${record.guard} ${record.decision}${short ? `: ${short}` : ""}`,
    harnessSessionId: record.sessionId,
    payload: {
      ...(record.extra ?? {}),
      guard: record.guard,
      decision: record.decision,
      reason,
      harness: record.harness,
      ...(record.tool ? { tool: record.tool } : {}),
      written_by: writer(record.guard),
      ...(record.sessionId ? { harness_session_id: record.sessionId } : {}),
    },
  });
}
