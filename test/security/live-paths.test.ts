/**
 * Issue 11 item 2, every other file a hook writes into a project: `live/` folders and files, `.sessions/` pointers,
 * `hooks.log` and its rotation, context-save snapshots under `docs/`. A symlink on the way (to a folder outside, to
 * `~/.bashrc`) is never written through: the SQLite row is still recorded, the file write is refused and logged.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTemp, rows, runAioson } from "../helpers.ts";
import { hookLogOf, type Hostile, hostileProject, outsideState, runBounded, runtimeOf, WRITE_PAYLOAD } from "./paths-helpers.ts";

afterAll(cleanupTemp);

const payload = JSON.stringify(WRITE_PAYLOAD);

/** A first event, so the hooks session and its live folder exist; returns the session folder. */
function startSession(h: Hostile): { sessionKey: string; dir: string } {
  const run = runAioson(["hooks:emit", h.project, "--json"], { stdin: payload, home: h.home });
  const sessionKey = (run.json as { sessionKey: string }).sessionKey;
  return { sessionKey, dir: join(runtimeOf(h.project), "live", sessionKey) };
}

function eventCount(h: Hostile): number {
  return rows<{ n: number }>(h.project, "SELECT COUNT(*) AS n FROM execution_events")[0]?.n ?? 0;
}

function replaceWithLink(path: string, target: string): void {
  Bun.spawnSync(["rm", "-rf", path]);
  symlinkSync(target, path);
}

describe("live files", () => {
  test("events.ndjson as a symlink to ~/.bashrc: the row is stored, the shell file untouched, the refusal logged", async () => {
    const h = hostileProject();
    const { dir } = startSession(h);
    replaceWithLink(join(dir, "events.ndjson"), join(h.home, ".bashrc"));
    const before = outsideState(h);
    const count = eventCount(h);
    const run = await runBounded(["hooks:emit", h.project, "--json"], { h, stdin: JSON.stringify({ ...WRITE_PAYLOAD, tool_input: { file_path: "$(touch pwned).ts" } }) });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true });
    expect(eventCount(h)).toBe(count + 1);
    expect(outsideState(h)).toEqual(before);
    expect(hookLogOf(h)).toContain("events.ndjson is a symlink");
  });

  test("state.json as a symlink: not read, not rewritten", async () => {
    const h = hostileProject();
    const { dir } = startSession(h);
    writeFileSync(join(h.outside, "state.json"), readFileSync(join(dir, "state.json")));
    replaceWithLink(join(dir, "state.json"), join(h.outside, "state.json"));
    const before = outsideState(h);
    await runBounded(["hooks:emit", h.project], { h, stdin: payload });
    expect(outsideState(h)).toEqual(before);
  });

  test("the session folder as a symlink to a folder outside", async () => {
    const h = hostileProject();
    const { dir } = startSession(h);
    replaceWithLink(dir, h.outside);
    const before = outsideState(h);
    const run = await runBounded(["hooks:emit", h.project, "--json"], { h, stdin: payload });
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true });
    expect(outsideState(h)).toEqual(before);
    expect(hookLogOf(h)).toContain("is a symlink");
  });

  test("live/ as a symlink, before the first event", async () => {
    const h = hostileProject();
    mkdirSync(runtimeOf(h.project), { recursive: true });
    symlinkSync(h.outside, join(runtimeOf(h.project), "live"));
    const before = outsideState(h);
    const run = await runBounded(["hooks:emit", h.project, "--json"], { h, stdin: payload });
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, autoStarted: true });
    expect(outsideState(h)).toEqual(before);
  });

  test(".sessions/ as a symlink: no pointer written outside, none removed outside at SessionEnd", async () => {
    const h = hostileProject();
    mkdirSync(runtimeOf(h.project), { recursive: true });
    symlinkSync(h.outside, join(runtimeOf(h.project), ".sessions"));
    // A pointer-shaped bait outside: a SessionEnd clearing "its" pointer must not delete it.
    writeFileSync(join(h.outside, "@dev.json"), JSON.stringify({ runKey: "dev-1", finished: false }));
    const before = outsideState(h);
    await runBounded(["hooks:emit", h.project], { h, stdin: payload });
    await runBounded(["hooks:emit", h.project, "--event=SessionEnd"], { h, stdin: JSON.stringify({ session_id: "S-1" }) });
    expect(outsideState(h)).toEqual(before);
  });

  test("runtime:emit and agent:done into a session whose files are symlinked write nothing outside", async () => {
    const h = hostileProject();
    const { dir } = startSession(h);
    replaceWithLink(join(dir, "events.ndjson"), join(h.home, ".bashrc"));
    replaceWithLink(join(dir, "state.json"), join(h.outside, "bait.txt"));
    const before = outsideState(h);
    expect((await runBounded(["runtime:emit", h.project, "--agent=dev", "--summary=note"], { h })).code).toBe(0);
    expect((await runBounded(["agent:done", h.project, "--agent=dev"], { h })).code).toBe(0);
    expect(outsideState(h)).toEqual(before);
  });
});

describe("the hook log", () => {
  test("hooks.log as a symlink to ~/.bashrc is never appended to", async () => {
    const h = hostileProject();
    mkdirSync(runtimeOf(h.project), { recursive: true });
    symlinkSync(join(h.home, ".bashrc"), join(runtimeOf(h.project), "hooks.log"));
    const before = outsideState(h);
    // No payload: a hook-log line is all this call writes.
    const run = await runBounded(["hooks:emit", h.project, "--json"], { h, stdin: "not json $(id)" });
    expect(run.code).toBe(0);
    expect(outsideState(h)).toEqual(before);
  });

  test("rotation never renames over a symlinked hooks.log.1 target, and never follows it", async () => {
    const h = hostileProject();
    mkdirSync(runtimeOf(h.project), { recursive: true });
    writeFileSync(join(runtimeOf(h.project), "hooks.log"), "x".repeat(300 * 1024));
    symlinkSync(join(h.home, ".bashrc"), join(runtimeOf(h.project), "hooks.log.1"));
    const before = outsideState(h);
    await runBounded(["hooks:emit", h.project], { h, stdin: "junk" });
    expect(outsideState(h)).toEqual(before);
  });
});

describe("context-save snapshots", () => {
  function withSession(h: Hostile): void {
    runAioson(["hooks:emit", h.project], { stdin: payload, home: h.home });
  }

  const compact = JSON.stringify({ hook_event_name: "PreCompact", session_id: "S-1", trigger: "auto", cwd: "" });

  test("a symlinked docs/ is not written through", async () => {
    const h = hostileProject();
    withSession(h);
    symlinkSync(h.outside, join(h.project, "docs"));
    const before = outsideState(h);
    const run = await runBounded(["guard:context-save", h.project], { h, stdin: compact });
    expect(run.code).toBe(0);
    expect(outsideState(h)).toEqual(before);
    expect(hookLogOf(h)).toContain("is a symlink");
  });

  test("a symlinked snapshot file is not written through", async () => {
    const h = hostileProject();
    withSession(h);
    mkdirSync(join(h.project, "docs", "maps"), { recursive: true });
    symlinkSync(join(h.home, ".bashrc"), join(h.project, "docs", "maps", "session-s-1-snapshot.md"));
    const before = outsideState(h);
    await runBounded(["guard:context-save", h.project], { h, stdin: compact });
    expect(outsideState(h)).toEqual(before);
  });

  test("without symlinks the snapshot is written (the guard still works)", async () => {
    const h = hostileProject();
    withSession(h);
    const run = await runBounded(["guard:context-save", h.project], { h, stdin: compact });
    expect(run.code).toBe(0);
    expect(readdirSync(join(h.project, "docs", "maps"))).toEqual(["session-s-1-snapshot.md"]);
  });
});
