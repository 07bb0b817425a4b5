/** Nothing lost (issue 3): parallel writers, cold starts, and processes killed mid-write. */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, cleanupTemp, rows, runAioson, tempDir, tempProject, testEnv } from "../helpers.ts";
import { emit, events, liveDirOf } from "./helpers.ts";
import { openDbFile } from "../../scripts/open-db.ts";

afterAll(cleanupTemp);

const writePayload = (file: string) => JSON.stringify({ hook_event_name: "PostToolUse", tool_name: "Write", tool_input: { file_path: file }, session_id: "S" });

function spawnEmit(project: string, home: string, payload: string) {
  return Bun.spawn([BINARY, "hooks:emit", project], { stdin: new TextEncoder().encode(payload), env: testEnv(home), stdout: "pipe", stderr: "pipe" });
}

function rawLines(project: string, sessionKey: string): string[] {
  return readFileSync(join(liveDirOf(project, sessionKey), "events.ndjson"), "utf8").split("\n").filter((line) => line !== "");
}

describe("hooks:emit — concurrency", () => {
  test("32 parallel writers, 400 events: 400 rows and 400 whole ndjson lines", async () => {
    const project = tempProject();
    const home = tempDir();
    const lanes = Array.from({ length: 32 }, (_, lane) => lane);
    const codes: number[] = [];
    await Promise.all(
      lanes.map(async (lane) => {
        const count = lane < 16 ? 13 : 12;
        for (let i = 0; i < count; i++) codes.push(await spawnEmit(project, home, writePayload(`lane${lane}/f${i}.ts`)).exited);
      }),
    );
    expect(codes).toHaveLength(400);
    expect(codes.every((code) => code === 0)).toBe(true);
    const artifacts = events(project).filter((row) => row.event_type === "artifact");
    expect(artifacts).toHaveLength(400);
    expect(new Set(artifacts.map((row) => row.message)).size).toBe(400);
    expect(rows(project, "SELECT * FROM agent_runs")).toHaveLength(1);
    const sequence = events(project).map((row) => row.sequence_no);
    expect(new Set(sequence).size).toBe(401);
    const key = artifacts[0]?.session_key ?? "";
    const lines = rawLines(project, key);
    expect(lines).toHaveLength(401);
    const parsed = lines.map((line) => JSON.parse(line) as { type: string; file?: string });
    expect(new Set(parsed.filter((line) => line.type === "artifact").map((line) => line.file)).size).toBe(400);
  }, 120_000);

  test("cold start: 32 parallel first events create the store once and one hooks session", async () => {
    const project = tempProject();
    const home = tempDir();
    const codes = await Promise.all(Array.from({ length: 32 }, (_, i) => spawnEmit(project, home, writePayload(`cold${i}.ts`)).exited));
    expect(codes.every((code) => code === 0)).toBe(true);
    expect(rows(project, "SELECT * FROM tasks")).toHaveLength(1);
    const runs = rows<{ run_key: string }>(project, "SELECT * FROM agent_runs");
    expect(runs).toHaveLength(1);
    const all = events(project);
    expect(all).toHaveLength(33);
    expect(all.every((row) => row.run_key === runs[0]?.run_key)).toBe(true);
    expect(all.filter((row) => row.event_type === "session_started")).toHaveLength(1);
    expect(rawLines(project, all[0]?.session_key ?? "")).toHaveLength(33);
  }, 60_000);
});

describe("hooks:emit — live:status under parallel writers (issue 13)", () => {
  type Status = { stats: { events_total: number; events_by_type: Record<string, number> }; recentEvents: { ts: string; type: string; summary: string }[] };

  for (const writers of [12, 32]) {
    test(`${writers} parallel emits into one session: live:status counts and lists every one the store holds`, async () => {
      const project = tempProject();
      const home = tempDir();
      // The session exists first (as after a session's first hook); then every writer rewrites the same state.json.
      expect((await spawnEmit(project, home, writePayload("first.ts")).exited)).toBe(0);
      const codes = await Promise.all(Array.from({ length: writers }, (_, i) => spawnEmit(project, home, writePayload(`par${i}.ts`)).exited));
      expect(codes.every((code) => code === 0)).toBe(true);
      const stored = events(project);
      expect(stored).toHaveLength(writers + 2);
      const status = runAioson(["live:status", project, "--agent=dev", "--json", "--limit=20"]).json as Status;
      expect(status.stats.events_total).toBe(stored.length);
      expect(status.stats.events_by_type).toEqual({ session_started: 1, artifact: writers + 1 });
      // The newest events, exactly as the store has them, oldest first.
      const newest = stored.slice(-20).map((row) => row.message);
      expect(status.recentEvents.map((event) => event.summary)).toEqual(newest);
      // Without --limit: the store's newest 8.
      const plain = runAioson(["live:status", project, "--agent=dev", "--json"]).json as Status;
      expect(plain.recentEvents.map((event) => event.summary)).toEqual(stored.slice(-8).map((row) => row.message));
    }, 120_000);
  }

  test("cold start: 12 parallel first emits create one session, and live:status counts all of them", async () => {
    const project = tempProject();
    const home = tempDir();
    const codes = await Promise.all(Array.from({ length: 12 }, (_, i) => spawnEmit(project, home, writePayload(`cold${i}.ts`)).exited));
    expect(codes.every((code) => code === 0)).toBe(true);
    const status = runAioson(["live:status", project, "--agent=dev", "--json"]).json as Status;
    expect(status.stats.events_total).toBe(13);
    expect(status.stats.events_by_type).toEqual({ session_started: 1, artifact: 12 });
  }, 60_000);
});

describe("hooks:emit — a store locked for longer than the busy timeout", () => {
  test("the event is dropped after ~5 s, exit 0, {ok:false}, logged — the agent is not held", async () => {
    const project = tempProject();
    expect(emit(project, writePayload("first.ts")).result.ok).toBe(true);
    const blocker = openDbFile(join(project, ".aioson", "runtime", "aios.sqlite"));
    blocker.exec("BEGIN IMMEDIATE");
    const proc = Bun.spawn([BINARY, "hooks:emit", project, "--json"], { stdin: new TextEncoder().encode(writePayload("locked.ts")), env: testEnv(tempDir()), stdout: "pipe" });
    const bound = new Promise<"hung">((settle) => setTimeout(() => settle("hung"), 15_000));
    const outcome = await Promise.race([proc.exited, bound]);
    blocker.exec("ROLLBACK");
    blocker.close();
    if (outcome === "hung") proc.kill(9);
    expect(outcome).toBe(0);
    expect(JSON.parse(await new Response(proc.stdout).text())).toEqual({ ok: false });
    expect(readFileSync(join(project, ".aioson", "runtime", "hooks.log"), "utf8")).toContain("database is locked");
    expect(emit(project, writePayload("after.ts")).result.ok).toBe(true);
    expect(events(project).map((row) => row.message)).not.toContain("Write: locked.ts");
  }, 30_000);
});

describe("hooks:emit — killed mid-write", () => {
  test("SIGKILL while waiting inside a write leaves the store readable; the next call works", async () => {
    const project = tempProject();
    expect(emit(project, writePayload("first.ts")).result.ok).toBe(true);
    // Hold the write lock so the hook is caught inside its BEGIN IMMEDIATE, then kill it there.
    const blocker = openDbFile(join(project, ".aioson", "runtime", "aios.sqlite"));
    blocker.exec("PRAGMA busy_timeout = 5000");
    blocker.exec("BEGIN IMMEDIATE");
    blocker.exec("INSERT INTO agent_events (run_key, event_type, message, created_at) SELECT run_key, 'probe', '', 'x' FROM agent_runs LIMIT 1");
    const victim = spawnEmit(project, tempDir(), writePayload("victim.ts"));
    await Bun.sleep(300);
    victim.kill(9);
    expect(await victim.exited).not.toBe(0);
    blocker.exec("ROLLBACK");
    blocker.close();
    expect(emit(project, writePayload("after.ts")).result).toMatchObject({ ok: true, message: "Write: after.ts" });
    expect(rows<{ integrity_check: string }>(project, "PRAGMA integrity_check")[0]?.integrity_check).toBe("ok");
    expect(events(project).map((row) => row.message)).toEqual(["Auto-started by hooks:emit (claude)", "Write: first.ts", "Write: after.ts"]);
  }, 30_000);

  test("processes killed at random moments never tear the store or a line", async () => {
    const project = tempProject();
    const home = tempDir();
    expect(emit(project, writePayload("seed.ts")).result.ok).toBe(true);
    const victims = Array.from({ length: 16 }, (_, i) => {
      const proc = spawnEmit(project, home, writePayload(`k${i}.ts`));
      setTimeout(() => proc.kill(9), 2 + ((i * 7) % 40));
      return proc;
    });
    await Promise.all(victims.map((proc) => proc.exited));
    expect(emit(project, writePayload("after.ts")).result).toMatchObject({ ok: true, message: "Write: after.ts" });
    expect(rows<{ integrity_check: string }>(project, "PRAGMA integrity_check")[0]?.integrity_check).toBe("ok");
    const all = events(project);
    const lines = rawLines(project, all[0]?.session_key ?? "");
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    // Every committed artifact row has its line unless the kill landed between commit and append.
    expect(lines.length).toBeLessThanOrEqual(all.length);
    expect(all.filter((row) => row.event_type === "session_started")).toHaveLength(1);
  }, 30_000);
});
