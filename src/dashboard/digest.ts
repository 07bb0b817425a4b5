/**
 * The dashboard's summary of one session as terminal lines, for `aioson live:status --watch`: the same panels (files,
 * commands still failing, last test, plan, compactions, guard) in a few lines. Recorded text goes to a terminal here,
 * so every recorded value goes through src/text/terminal.ts (escape sequences could rewrite the screen or the title).
 */
import type { Database } from "bun:sqlite";
import type { SessionDetail } from "./api.ts";
import { harnessDetail } from "./detail.ts";
import { SQL, harnessSession, liveRuns } from "./queries.ts";
import { terminalText } from "../text/terminal.ts";

const FILES_SHOWN = 5;
const FAILING_SHOWN = 3;

export function digestLines(detail: SessionDetail): string[] {
  const lines = [`Session ${detail.id} (${detail.harness ?? "harness"}, ${detail.events} events, ${detail.state}):`];
  const files = detail.files.slice(0, FILES_SHOWN).map((file) => file.path);
  lines.push(detail.files.length === 0 ? "Files changed: none" : `Files changed: ${detail.files.length} — ${files.join(", ")}${detail.files.length > FILES_SHOWN ? ", …" : ""}`);
  if (detail.failing.length === 0) lines.push("Still failing: none");
  for (const failing of detail.failing.slice(0, FAILING_SHOWN)) lines.push(`Still failing: $ ${failing.command}${failing.exitCode === null ? "" : ` (exit ${failing.exitCode})`}`);
  if (detail.failing.length > FAILING_SHOWN) lines.push(`Still failing: … and ${detail.failing.length - FAILING_SHOWN} more`);
  const test = detail.lastTest;
  lines.push(test ? `Last test: ${test.outcome} — $ ${test.command}${test.summary ? ` — ${test.summary}` : ""}` : "Last test: none");
  lines.push(detail.plan ? `Plan: ${detail.plan.done} of ${detail.plan.total} done` : "Plan: none");
  const last = detail.compactions.at(-1);
  lines.push(`Compactions: ${detail.compactionCount}${last ? `, the last at ${last.ts}` : ""}`);
  const guard = detail.guardCounts;
  lines.push(`Guard: ${guard.deny} denied · ${guard.ask} asked · ${guard.block} blocked · ${guard.injected} rule injections`);
  return lines.map(terminalText);
}

/** The digest of the harness session a run wrote last, or nothing when its rows carry no harness session id. */
export function runDigest(db: Database, root: string, runKey: string): string[] {
  const row = db.query(SQL.runSession).get(runKey) as { harness_session_id: string } | null;
  if (!row) return [];
  const runs = liveRuns(db);
  const session = harnessSession(db, runs, row.harness_session_id);
  if (!session) return [];
  return digestLines(harnessDetail(db, root, session, runs.find((run) => run.run === session.run)));
}
