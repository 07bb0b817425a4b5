/**
 * Issue 16 item 4: a closed session leaves the store self-contained. A hook's close leaves its frames in the WAL
 * (store/db.ts closeStore), so without a checkpoint at the session's close a copy of `aios.sqlite` alone (a backup,
 * a file copied to another machine) would lack the newest events. After a SessionEnd, a session:guard idle close or
 * a session:guard stop, the database file alone holds every event of every closed session.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { appendFileSync, copyFileSync, existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { BINARY, cleanupTemp, emitHook as emit, recordWrite as write, rows, runAioson, tempDir, tempProject, testEnv } from "../helpers.ts";
import { openDbFile } from "../../scripts/open-db.ts";

afterAll(cleanupTemp);

const dbFile = (project: string) => join(project, ".aioson", "runtime", "aios.sqlite");

/** The rows a copy of the database file alone holds, per run (the WAL and shared-memory files left behind). */
function copiedAlone(project: string): Map<string, number> {
  const copy = join(tempDir("aioson-copy-"), "aios.sqlite");
  copyFileSync(dbFile(project), copy);
  const db = openDbFile(copy, { readonly: true });
  try {
    // A store whose schema is still in the WAL has no table in the file yet.
    if (!db.query("SELECT 1 FROM sqlite_master WHERE name = 'execution_events'").get()) return new Map();
    const counts = db.query("SELECT run_key, COUNT(*) AS n FROM execution_events WHERE run_key IS NOT NULL GROUP BY run_key").all() as Array<{ run_key: string; n: number }>;
    return new Map(counts.map((row) => [row.run_key, row.n]));
  } finally {
    db.close();
  }
}

function recorded(project: string): Map<string, number> {
  const counts = rows<{ run_key: string; n: number }>(project, "SELECT run_key, COUNT(*) AS n FROM execution_events WHERE run_key IS NOT NULL GROUP BY run_key");
  return new Map(counts.map((row) => [row.run_key, row.n]));
}

describe("a closed session's events are in the database file", () => {
  test("SessionEnd: a copy of aios.sqlite alone holds every event of the closed hooks session", () => {
    const project = tempProject();
    for (let i = 0; i < 3; i++) write(project, "claude-1", `src/a${i}.ts`);
    const [run] = rows<{ run_key: string }>(project, "SELECT run_key FROM agent_runs");
    // Before the close the newest events are in the WAL only: what a copy of the file alone would lose.
    expect(statSync(`${dbFile(project)}-wal`).size).toBeGreaterThan(0);
    expect(copiedAlone(project).get(run?.run_key as string) ?? 0).toBeLessThan(4);
    emit(project, { session_id: "claude-1", reason: "exit" }, ["--event=SessionEnd"]);
    expect(rows<{ status: string }>(project, "SELECT status FROM agent_runs")[0]?.status).toBe("completed");
    expect(copiedAlone(project)).toEqual(recorded(project));
    expect(recorded(project).get(run?.run_key as string)).toBe(5);
  });

  test("a SessionEnd that keeps a live:start session open still puts the ended harness session in the file", () => {
    const project = tempProject();
    expect(runAioson(["live:start", project, "--tool=claude", "--agent=dev", "--no-launch"]).code).toBe(0);
    for (let i = 0; i < 2; i++) write(project, "claude-2", `src/b${i}.ts`);
    expect(copiedAlone(project)).not.toEqual(recorded(project));
    emit(project, { session_id: "claude-2", reason: "exit" }, ["--event=SessionEnd"]);
    expect(rows<{ status: string }>(project, "SELECT status FROM agent_runs")[0]?.status).toBe("running");
    expect(copiedAlone(project)).toEqual(recorded(project));
  });

  test("session:guard: an idle close and a stop leave every event of the closed sessions in the file", async () => {
    const project = tempProject();
    const started = runAioson(["session:guard", project, "--once", "--json"]).json as { sessionKey: string; runKey: string };
    for (let i = 0; i < 5; i++) expect(runAioson(["runtime:emit", project, "--agent=dev", `--summary=note ${i}`]).code).toBe(0);
    // Two hours without activity: the session's last ndjson line says when it was active.
    const ndjson = join(project, ".aioson", "runtime", "live", started.sessionKey, "events.ndjson");
    appendFileSync(ndjson, `${JSON.stringify({ ts: new Date(Date.now() - 2 * 3_600_000).toISOString(), type: "note", summary: "old" })}\n`);
    const closed = runAioson(["session:guard", project, "--once", "--json", "--idle-minutes=60"]).json as { closed: boolean };
    expect(closed.closed).toBe(true);
    expect(copiedAlone(project)).toEqual(recorded(project));
    expect(recorded(project).get(started.runKey)).toBe(7);

    // A watching guard stopped by a signal closes the session it started.
    const home = tempDir("aioson-home-");
    const watcher = Bun.spawn([BINARY, "session:guard", project, "--interval=50"], { env: testEnv(home), stdout: "pipe", stderr: "pipe" });
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && rows(project, "SELECT 1 FROM agent_runs WHERE status = 'running'").length === 0) await Bun.sleep(20);
    for (let i = 0; i < 3; i++) expect(runAioson(["runtime:emit", project, "--agent=dev", `--summary=watched ${i}`]).code).toBe(0);
    watcher.kill("SIGTERM");
    expect(await watcher.exited).toBe(0);
    expect(rows(project, "SELECT 1 FROM agent_runs WHERE status = 'running'")).toEqual([]);
    expect(existsSync(dbFile(project))).toBe(true);
    expect(copiedAlone(project)).toEqual(recorded(project));
  });
});
