/**
 * Hook health of a project: what the installed harness configs say (hooks:doctor's inspection, which runs nothing),
 * the problems hooks logged in `.aioson/runtime/hooks.log`, and when each hook last fired, per harness, from the
 * events it recorded.
 */
import type { Database } from "bun:sqlite";
import { HOOK_LOG_MAX_BYTES, hookLogPath } from "../core/hook-log.ts";
import { assertProjectPath } from "../core/project-fs.ts";
import { readRegularFile } from "../core/regular-file.ts";
import { inspectInstalledHooks } from "../install/doctor.ts";
import { parseJsonObject } from "../store/records.ts";
import type { HealthResponse, HookFired, LogLine } from "./api.ts";
import type { EventRow } from "./events.ts";
import { SQL, type LiveRun } from "./queries.ts";

const LOG_MAX_BYTES = 4 * HOOK_LOG_MAX_BYTES;
/** The newest lines are the ones worth showing. */
const LOG_LINES = 50;
const LOG_TEXT_MAX = 500;
/** Rows read per agent and event type to find each harness's newest. */
const FIRED_ROWS = 50;

/** What each recorded event type says fired (hooks:recap, the SessionStart hook, records nothing). */
const FIRED_BY: ReadonlyArray<[type: string, hook: string]> = [
  ["artifact", "PostToolUse (file change)"],
  ["step_done", "PostToolUse (command)"],
  ["note", "PostToolUse (plan, task, other tool)"],
  ["agent_activated", "UserPromptSubmit"],
  ["agent_message", "Stop"],
  ["agent_done", "Stop (agent:done)"],
  ["compaction", "PreCompact"],
  ["compaction_confirmed", "SessionStart (compact) / PostCompact"],
  ["session_ended", "SessionEnd"],
  ["guard_injected", "PreToolUse (context:guard)"],
  ["guard_decision", "guard decision"],
];

/** hooks.log (rotated past HOOK_LOG_MAX_BYTES by its writer); a file far larger is not ours and is not read. */
function readLog(root: string): string | null {
  const path = hookLogPath(root);
  assertProjectPath(root, path);
  const read = readRegularFile(path, LOG_MAX_BYTES, { noFollow: true });
  if (read.kind === "ok") return read.text;
  if (read.kind === "missing") return null;
  throw new Error(read.kind === "not-regular" ? `it is ${read.what}` : read.kind === "too-large" ? `larger than ${read.limit} bytes` : read.code);
}

const LOG_LINE = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z) (\S+) (.*)$/;

/** hooks.log lines (`<iso time> <command> <problem>`), newest first; other lines are shown as they are. */
export function logLines(text: string): LogLine[] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .slice(-LOG_LINES)
    .reverse()
    .map((line) => {
      const match = LOG_LINE.exec(line);
      const body = match ? (match[3] as string) : line;
      return { ts: match?.[1] ?? null, command: match?.[2] ?? null, text: body.length > LOG_TEXT_MAX ? `${body.slice(0, LOG_TEXT_MAX - 1)}…` : body };
    });
}

function hookLog(root: string): LogLine[] {
  try {
    return logLines(readLog(root) ?? "");
  } catch (error) {
    return [{ ts: null, command: null, text: `hooks.log could not be read: ${error instanceof Error ? error.message : String(error)}` }];
  }
}

/** The newest event of each (hook, harness), from the newest rows of each agent and type. */
export function lastFired(db: Database, runs: readonly LiveRun[]): HookFired[] {
  const byRun = new Map(runs.map((run) => [run.run, run]));
  const agents = (db.query(SQL.agents).all() as Array<{ n: string }>).map((row) => row.n);
  const typed = db.query(SQL.agentTyped);
  const sessionRun = db.query(SQL.sessionRun);
  const newest = new Map<string, HookFired>();
  for (const [type, hook] of FIRED_BY) {
    for (const agent of agents) {
      for (const row of typed.all(agent, type, FIRED_ROWS) as EventRow[]) {
        const payload = parseJsonObject(row.payload_json);
        // A note recorded by hand (runtime:emit) is not a hook firing.
        if (type === "note" && payload?.written_by !== "hooks:emit") continue;
        const runKey = row.run_key ?? (row.harness_session_id ? ((sessionRun.get(row.harness_session_id) as { run_key: string } | null)?.run_key ?? null) : null);
        const harness = typeof payload?.harness === "string" ? payload.harness : runKey ? (byRun.get(runKey)?.harness ?? null) : null;
        const name = type === "guard_decision" && typeof payload?.guard === "string" ? `guard:${payload.guard.replace(/^guard:/, "")}` : hook;
        const key = `${name}\u0000${harness ?? ""}`;
        const known = newest.get(key);
        if (!known || known.ts < row.created_at) newest.set(key, { hook: name, harness, eventType: type, ts: row.created_at });
      }
    }
  }
  return [...newest.values()].sort((a, b) => (b.ts < a.ts ? -1 : b.ts > a.ts ? 1 : 0));
}

export function projectHealth(root: string, db: Database | null, runs: readonly LiveRun[]): HealthResponse {
  const inspection = inspectInstalledHooks(root, process.env);
  return {
    harnesses: inspection.harnesses.map((harness) => ({
      tool: harness.tool,
      path: harness.path,
      installed: harness.installed,
      handlers: harness.handlers.map((handler) => ({ event: handler.event, matcher: handler.matcher ?? null })),
    })),
    issues: inspection.issues.map((issue) => ({ severity: issue.severity, tool: issue.tool ?? null, message: issue.message, fix: issue.fix })),
    fired: db ? lastFired(db, runs) : [],
    log: hookLog(root),
  };
}
