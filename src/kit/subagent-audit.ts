/**
 * subagent-audit: one audit line per sub-agent start, on stderr (the harness's debug log) and in the store as a
 * standalone `execution_events` row (`source='guard'`, `event_type='subagent_started'`). Never interferes: `{}`.
 */
import { logHookProblem } from "../core/hook-log.ts";
import { terminalText } from "../text/terminal.ts";
import type { Decision } from "./dialect.ts";
import { sessionId, stringField } from "./payload.ts";
import type { GuardContext } from "./run.ts";

function pad(value: number): string {
  return String(value).padStart(2, "0");
}

/** `yyyy-MM-dd HH:mm:ss` in local time, as an operator reads a log. */
export function auditTimestamp(now: Date): string {
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())} ${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}`;
}

/** The sub-agent's name: Copilot/seed `agentName`, Claude/Codex/VS Code `agent_type`, else its id. */
export function subagentName(context: GuardContext): string {
  const raw = stringField(context.payload, "agentName", "agent_name", "agent_type", "agentType", "subagent_type", "agent_id", "agentId");
  // One line, bounded, no control left to drive the terminal that shows the log: the name comes from the harness.
  const name = terminalText(raw).trim().slice(0, 200);
  return name || "unknown";
}

export async function judge(context: GuardContext): Promise<Decision> {
  const name = subagentName(context);
  const now = new Date();
  const line = `[${auditTimestamp(now)}] Subagent started: ${name}`;
  console.error(line);
  if (context.root) {
    try {
      const [{ openStore, closeStore }, { insertStandaloneEvent }] = await Promise.all([import("../store/db.ts"), import("../store/records.ts")]);
      const store = openStore(context.root);
      if (store) {
        try {
          insertStandaloneEvent(store.db, {
            source: "guard",
            phase: "guard",
            eventType: "subagent_started",
            message: line,
            agentName: name,
            payload: { agent: name, agent_id: stringField(context.payload, "agent_id", "agentId") || null, harness: context.harness, written_by: "guard:subagent-audit" },
            harnessSessionId: sessionId(context.payload) || null,
            at: now.toISOString(),
          });
        } finally {
          closeStore(store);
        }
      }
    } catch (error) {
      logHookProblem(context.root, "guard:subagent-audit", error);
    }
  }
  return { kind: "empty" };
}
