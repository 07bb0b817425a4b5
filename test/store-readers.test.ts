/**
 * Issue 23 item 2: every handle on the store waits for a lock, as the product's own readers do (store/db.ts
 * openStore sets busy_timeout first). A session's close starts the detached `runtime:prune --auto`, whose first open
 * of the store may hold the WAL's recovery lock for a moment; a handle without a busy timeout failed at once with
 * "database is locked" (the test helpers did, and hooks:doctor's event count right after its SessionEnd handler).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTemp, emitHook as emit, recordWrite as write, rows, runAioson, tempDir, tempProject } from "./helpers.ts";

afterAll(cleanupTemp);

const storeOf = (project: string) => join(project, ".aioson", "runtime", "aios.sqlite");

/**
 * A child process that takes the store in SQLite's exclusive locking mode (no other connection can even read) and
 * keeps it for `holdMs`; resolves once the lock is held. A deterministic stand-in for the pruner's recovery lock.
 */
async function holdStore(project: string, holdMs: number): Promise<{ exited: Promise<number> }> {
  const ready = join(tempDir(), "ready");
  const script = join(tempDir(), "hold.ts");
  writeFileSync(
    script,
    `import { Database } from "bun:sqlite";
// Exclusive mode keeps other connections out only when it is set before the first WAL access with no -shm file:
// the store's writers keep a persistent WAL, so the files are removed after a checkpoint empties the WAL.
const first = new Database(${JSON.stringify(storeOf(project))});
first.query("PRAGMA wal_checkpoint(TRUNCATE)").get();
first.close();
// Nothing holds the store now and its WAL is empty: the files a persistent WAL keeps can go.
for (const suffix of ["-wal", "-shm"]) require("node:fs").rmSync(${JSON.stringify(storeOf(project))} + suffix, { force: true });
const db = new Database(${JSON.stringify(storeOf(project))});
db.exec("PRAGMA locking_mode = EXCLUSIVE");
// A write (which changes nothing) takes the exclusive lock, which this mode keeps until the close.
db.exec("UPDATE execution_events SET message = message WHERE id = (SELECT MIN(id) FROM execution_events)");
require("node:fs").writeFileSync(${JSON.stringify(ready)}, "");
Bun.sleepSync(${holdMs});
db.close();
`,
  );
  const child = Bun.spawn([process.execPath, script], { stdout: "ignore", stderr: "inherit" });
  const deadline = Date.now() + 10_000;
  while (!existsSync(ready) && Date.now() < deadline) await Bun.sleep(10);
  expect(existsSync(ready)).toBe(true);
  // In an object: an async function returning the promise itself would wait for it.
  return { exited: child.exited };
}

describe("a read while another process holds the store", () => {
  test("waits for the lock and succeeds: the tests' own handles, runtime:status, live:status, context:usage", async () => {
    const project = tempProject();
    write(project, "claude-1", "src/a.ts");
    const count = () => rows<{ n: number }>(project, "SELECT COUNT(*) AS n FROM execution_events")[0]?.n;
    const expected = count();

    let { exited } = await holdStore(project, 600);
    const started = Date.now();
    expect(count()).toBe(expected);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(await exited).toBe(0);

    for (const args of [["runtime:status", project, "--json"], ["live:status", project, "--agent=dev", "--json"], ["context:usage", project, "--json"]]) {
      ({ exited } = await holdStore(project, 600));
      const run = runAioson(args);
      expect({ args, code: run.code, stderr: run.stderr }).toEqual({ args, code: 0, stderr: "" });
      expect(run.json).toBeDefined();
      expect(await exited).toBe(0);
    }
  }, 60_000);
});

describe("a read racing the detached pruner", () => {
  test("right after SessionEnd starts runtime:prune --auto, every read of the store succeeds", async () => {
    let reads = 0;
    for (let round = 0; round < 6; round++) {
      const project = tempProject();
      for (let i = 0; i < 20; i++) write(project, `claude-${round}`, `src/f${i}.ts`);
      emit(project, { session_id: `claude-${round}`, hook_event_name: "SessionEnd", reason: "exit" }, ["--event=SessionEnd"]);
      // The pruner writes prune.next when it is done: read as fast as possible until then.
      const marker = join(project, ".aioson", "runtime", "prune.next");
      const deadline = Date.now() + 5_000;
      do {
        expect(rows<{ n: number }>(project, "SELECT COUNT(*) AS n FROM execution_events")[0]?.n).toBeGreaterThanOrEqual(20);
        reads++;
      } while (!existsSync(marker) && Date.now() < deadline);
      expect(existsSync(marker)).toBe(true);
    }
    expect(reads).toBeGreaterThan(6);
  }, 120_000);
});
