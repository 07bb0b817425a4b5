/**
 * Publishing one event of an open live/hooks/guard session to the live directory (spec 2.7): the
 * ndjson line in the live shape and the state.json fold. Both are auxiliary (SQLite is the source of
 * truth), so failures are swallowed by the underlying writers. The line is these files' one door for the
 * commands people run (hooks:emit writes its own, already redacted lines): its texts are redacted here.
 */
import { agentHandle, canonicalAgent } from "../core/agent.ts";
import { appendNdjson, capLineText } from "../live/ndjson.ts";
import { applyEvent, readState, writeState, type LiveState } from "../live/state.ts";
import type { JsonObject, RunRow } from "../store/records.ts";
import { redactDeep, redactSecrets } from "../text/redact.ts";
import type { NewSession } from "./sessions.ts";

export type LiveLine = {
  ts: string;
  type: string;
  summary: string;
  refs?: string[];
  planStep?: string | null;
  status?: string | null;
  meta?: JsonObject | null;
};

export type LineRun = Pick<RunRow, "agent_name" | "task_key" | "run_key" | "session_key" | "status">;

/** The run fields of a session just created (before any row is read back). */
export function newSessionLineRun(session: NewSession): LineRun {
  return { agent_name: agentHandle(session.input.agent), task_key: session.taskKey, run_key: session.runKey, session_key: session.sessionKey, status: "running" };
}

/**
 * The live-shape ndjson line: `{ts, type, summary, agent, task_key, run_key, session_key, refs, plan_step, status, meta}`,
 * its texts redacted (the summary before it is capped).
 */
export type LiveNdjsonLine = {
  ts: string;
  type: string;
  summary: string;
  agent: string;
  task_key: string | null;
  run_key: string;
  session_key: string | null;
  refs: string[];
  plan_step: string | null;
  status: string;
  meta: JsonObject;
};

export function liveNdjsonLine(run: LineRun, line: LiveLine): LiveNdjsonLine {
  return {
    ts: line.ts,
    type: line.type,
    summary: capLineText(redactSecrets(line.summary)),
    agent: canonicalAgent(run.agent_name),
    task_key: run.task_key,
    run_key: run.run_key,
    session_key: run.session_key,
    refs: (line.refs ?? []).map(redactSecrets),
    plan_step: line.planStep ? redactSecrets(line.planStep) : null,
    status: line.status ?? run.status,
    meta: redactDeep(line.meta ?? {}),
  };
}

/**
 * After commit: appends the line and folds the event into state.json; `adjust` may change the
 * folded state further (current micro-task, plan totals).
 */
export function publishLiveEvent(root: string, run: RunRow, line: LiveLine, adjust?: (state: LiveState) => LiveState): void {
  if (!run.session_key) return;
  const ndjson = liveNdjsonLine(run, line);
  appendNdjson(root, run.session_key, [ndjson]);
  const state = readState(root, run.session_key);
  if (!state) return;
  const folded = applyEvent(state, { ts: line.ts, type: line.type, summary: ndjson.summary });
  writeState(root, adjust ? adjust(folded) : folded);
}
