/**
 * Spec 5.4 legacy mode: with no harness session id anywhere, the checkpoint reads the run the hooks
 * of `--agent` write to — spec 2.6 steps 1–4, read-only (never auto-starts anything).
 */
import type { Database } from "bun:sqlite";
import { readPointer } from "../live/pointer.ts";
import { findValidPointerRun, sessionOwner } from "../session/sessions.ts";
import { getTask, RUN_SELECT, type RunRow } from "../store/records.ts";
import { canonicalAgent } from "../core/agent.ts";

const OPEN = "status IN ('running', 'queued')";

function liveRunForSessionKey(db: Database, sessionKey: string): RunRow | null {
  return (
    (db
      .query(`SELECT ${RUN_SELECT} FROM agent_runs WHERE source = 'live' AND ${OPEN} AND session_key = ? ORDER BY agent_runs.started_at DESC, agent_runs.rowid DESC LIMIT 1`)
      .get(sessionKey) as RunRow | null) ?? null
  );
}

/** Step 3: the one open session owned by `live:start`, when exactly one exists. */
function onlyLiveStartSession(db: Database, root: string): RunRow | null {
  const open = db.query(`SELECT ${RUN_SELECT} FROM agent_runs WHERE source = 'live' AND ${OPEN}`).all() as RunRow[];
  const owned = open.filter((run) => {
    const task = run.task_key ? getTask(db, run.task_key) : null;
    return sessionOwner(run, task, readPointer(root, canonicalAgent(run.agent_name))) === "live";
  });
  return owned.length === 1 ? (owned[0] as RunRow) : null;
}

function agentHooksRun(db: Database, agent: string): RunRow | null {
  return (
    (db
      .query(
        `SELECT ${RUN_SELECT} FROM agent_runs WHERE source = 'live' AND ${OPEN} AND agent_name IN (?, ?) AND session_key LIKE ?
         ORDER BY agent_runs.started_at DESC, agent_runs.rowid DESC LIMIT 1`,
      )
      .get(`@${agent}`, agent, `hooks-${agent}-%`) as RunRow | null) ?? null
  );
}

export function findAgentSessionRun(db: Database, root: string, agent: string, env: string | undefined): RunRow | null {
  const pinned = (env ?? "").trim();
  if (pinned === "none") return agentHooksRun(db, agent);
  if (pinned) {
    const run = liveRunForSessionKey(db, pinned);
    if (run) return run;
  }
  return findValidPointerRun(db, root, agent)?.run ?? onlyLiveStartSession(db, root) ?? agentHooksRun(db, agent);
}
