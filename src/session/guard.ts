/**
 * `session:guard` (spec 10): each tick finds the agent's open session, starts a guard session when
 * there is none, and closes the session once its last recorded activity is older than the idle limit.
 */
import { agentHandle } from "../core/agent.ts";
import { isoNow } from "../core/time.ts";
import { readLastNdjsonLine } from "../live/ndjson.ts";
import { closeSessionRows, createSessionRows, findValidPointerRun, isOpenRun, publishClosedSession, publishNewSession, type NewSession } from "./sessions.ts";
import { liveNdjsonLine, newSessionLineRun, publishLiveEvent } from "./live-event.ts";
import { checkpointStore, withStoreTransaction, type Store } from "../store/db.ts";
import { startAutoPrune } from "../store/prune-trigger.ts";
import { getRun, type RunRow } from "../store/records.ts";

export type GuardConfig = {
  root: string;
  agent: string;
  tool: string;
  idleMinutes: number;
  /** Epoch ms the guard started: the last activity of a session with no ndjson line yet. */
  startedAt: number;
  log: (line: string) => void;
};

export type TickResult = { runKey: string | null; sessionKey: string | null; started: boolean; closed: boolean };

/** Last activity of a session: `ts` of its last ndjson line, else the guard's start. */
export function lastActivity(root: string, sessionKey: string | null, fallback: number): number {
  const ts = sessionKey ? readLastNdjsonLine(root, sessionKey)?.ts : undefined;
  const parsed = typeof ts === "string" ? Date.parse(ts) : Number.NaN;
  return Number.isFinite(parsed) ? parsed : fallback;
}

type Plan =
  | { kind: "started"; session: NewSession }
  | { kind: "found"; run: RunRow }
  | { kind: "closed"; run: RunRow; reason: string; at: string; idleMinutes: number };

function startMessage(tool: string): string {
  return `Auto-started by session:guard (${tool})`;
}

/** Closes a session's rows with the guard's `session_ended` event (inside a transaction). */
function closeRows(store: Store, runKey: string, reason: string, at: string): RunRow | null {
  return closeSessionRows(store.db, {
    runKey,
    summary: reason,
    at,
    event: { eventType: "session_ended", phase: "live", status: "completed", message: `Session closed by session:guard: ${reason}` },
  });
}

/**
 * After commit: the closing line and state fold, then the closed state and the pointer removed. The caller then
 * checkpoints (db.ts checkpointStore): a closed session's events belong in the database file.
 */
function publishClose(root: string, run: RunRow, reason: string, at: string): void {
  publishLiveEvent(root, run, { ts: at, type: "session_ended", summary: `Session closed by session:guard: ${reason}`, status: "completed" });
  publishClosedSession(root, run, at);
}

export function guardTick(store: Store, config: GuardConfig, now: number = Date.now()): TickResult {
  const plan = withStoreTransaction(store, (): Plan => {
    const found = findValidPointerRun(store.db, config.root, config.agent);
    if (!found) {
      const at = isoNow(new Date(now));
      const session = createSessionRows(store.db, {
        owner: "guard",
        agent: config.agent,
        tool: config.tool,
        root: config.root,
        sessionKey: `guard-${config.agent}-${Date.parse(at)}`,
        title: `[guard] ${config.agent} via ${config.tool}`,
        startedMessage: `Session auto-started by session:guard (${config.tool})`,
        meta: { guarded: true },
        at,
      });
      return { kind: "started", session };
    }
    const idleMs = now - lastActivity(config.root, found.run.session_key, config.startedAt);
    if (idleMs <= config.idleMinutes * 60_000) return { kind: "found", run: found.run };
    const minutes = Math.round(idleMs / 60_000);
    const reason = `Idle for ${minutes} minutes`;
    const at = isoNow(new Date(now));
    const closed = closeRows(store, found.run.run_key, reason, at);
    return closed ? { kind: "closed", run: closed, reason, at, idleMinutes: minutes } : { kind: "found", run: found.run };
  });
  if (plan.kind === "started") {
    const { session } = plan;
    const summary = startMessage(config.tool);
    publishNewSession(store.db, session, {
      summary,
      replacePointer: true,
      ndjsonLine: liveNdjsonLine(newSessionLineRun(session), { ts: session.startedAt, type: "session_started", summary, meta: { tool: config.tool } }),
    });
    config.log(`Session started: ${session.sessionKey} (run: ${session.runKey})`);
    return { runKey: session.runKey, sessionKey: session.sessionKey, started: true, closed: false };
  }
  if (plan.kind === "closed") {
    config.log(`Idle for ${plan.idleMinutes}m — closing session`);
    publishClose(config.root, plan.run, plan.reason, plan.at);
    checkpointStore(store);
    startAutoPrune(config.root);
    config.log(`Session closed: ${plan.run.run_key} (${plan.reason})`);
    return { runKey: null, sessionKey: null, started: false, closed: true };
  }
  return { runKey: plan.run.run_key, sessionKey: plan.run.session_key, started: false, closed: false };
}

/** On stop: closes the session this guard started, when it is still open. */
export function closeOwnSession(store: Store, config: GuardConfig, runKey: string): boolean {
  const reason = "session:guard stopped";
  const at = isoNow();
  const closed = withStoreTransaction(store, () => (isOpenRun(getRun(store.db, runKey)) ? closeRows(store, runKey, reason, at) : null));
  if (!closed) return false;
  publishClose(config.root, closed, reason, at);
  checkpointStore(store);
  config.log(`Session closed: ${closed.run_key} (${reason})`);
  return true;
}

export function guardBanner(config: GuardConfig): string[] {
  return [
    `[session:guard] Watching: ${config.root}`,
    `[session:guard] Agent: ${agentHandle(config.agent)} | Tool: ${config.tool} | Idle timeout: ${config.idleMinutes}m`,
    "[session:guard] Press Ctrl+C to stop.",
  ];
}
