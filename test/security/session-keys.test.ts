/**
 * Issue 11 item 3: keys and agent names read back from the store, a pointer or a state.json pass the same schema
 * as when aioson takes them in (core/labels.ts, core/agent.ts) before they become a path part. A flag that fails it
 * is a clear error; a value read back that fails it is refused (logged, the file write skipped, the row kept).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTemp, rows, runAioson } from "../helpers.ts";
import { editStore, hookLogOf, hostileProject, outsideState, runBounded, runtimeOf, WRITE_PAYLOAD } from "./paths-helpers.ts";

afterAll(cleanupTemp);

const payload = JSON.stringify(WRITE_PAYLOAD);

describe("--session and --agent taken in", () => {
  test.each([
    "../../outside/evil",
    "..",
    "a/b",
    "a\\b",
    "/etc/passwd",
    "C:\\Windows",
    "x\u0001y",
    "line\nbreak",
    "x".repeat(200),
    "CON",
    "trailing.",
    "-starts-with-dash",
    "a..b",
  ])("live:start --session=%j is a clear error and creates nothing", async (session) => {
    const h = hostileProject();
    const run = await runBounded(["live:start", h.project, "--tool=claude", "--no-launch", `--session=${session}`], { h });
    expect(run.code).toBe(1);
    expect(run.stderr).toStartWith("Error: Invalid --session:");
    expect(existsSync(runtimeOf(h.project))).toBe(false);
  });

  test("a session key made of letters, digits, dots and colons is accepted and names its folder", async () => {
    const h = hostileProject();
    const run = await runBounded(["live:start", h.project, "--tool=claude", "--no-launch", "--session=sprint-4:dev.1", "--json"], { h });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ sessionKey: "sprint-4:dev.1" });
    expect(existsSync(join(runtimeOf(h.project), "live", "sprint-4__dev.1", "state.json"))).toBe(true);
  });

  test.each(["../x", "a/b", "x".repeat(65), "dev&&calc", "../../outside/bait"])("--agent=%j: live:start refuses it clearly, the others record it and touch no file outside", async (agent) => {
    const h = hostileProject();
    const start = await runBounded(["live:start", h.project, "--tool=claude", "--no-launch", `--agent=${agent}`], { h });
    expect(start.code).toBe(1);
    expect(start.stderr).toStartWith("Error: Invalid --agent:");
    expect(existsSync(runtimeOf(h.project))).toBe(false);
    writeFileSync(join(h.outside, "bait.json"), JSON.stringify({ runKey: "dev-1", finished: false }));
    const before = outsideState(h);
    for (const command of [["runtime:emit", "--summary=x"], ["agent:done"], ["live:status"]]) {
      const run = await runBounded([command[0] as string, h.project, ...command.slice(1), `--agent=${agent}`], { h });
      expect(run.code).toBe(0);
    }
    expect(rows(h.project, "SELECT DISTINCT agent_name FROM agent_runs")).toEqual([{ agent_name: `@${agent.toLowerCase()}` }]);
    expect(outsideState(h)).toEqual(before);
  });
});

describe("values read back", () => {
  test("an open live session whose stored key climbs out: hooks adopt it, the row is stored, no file leaves", async () => {
    const h = hostileProject();
    const start = JSON.parse((await runBounded(["live:start", h.project, "--tool=claude", "--no-launch", "--json"], { h })).stdout) as { sessionKey: string };
    const evil = "../../../outside/evil";
    editStore(h, "UPDATE agent_runs SET session_key = ? WHERE session_key = ?", evil, start.sessionKey);
    editStore(h, "UPDATE tasks SET session_key = ? WHERE session_key = ?", evil, start.sessionKey);
    const before = outsideState(h);
    const run = await runBounded(["hooks:emit", h.project, "--json"], { h, stdin: payload });
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, sessionKey: evil });
    expect(rows(h.project, "SELECT 1 FROM execution_events WHERE session_key = ? AND event_type = 'artifact'", evil)).toHaveLength(1);
    expect(outsideState(h)).toEqual(before);
    expect(hookLogOf(h)).toContain("session key");
  });

  test("a stored agent name that is no agent id never names a pointer file (SessionEnd close)", async () => {
    const h = hostileProject();
    const first = JSON.parse((await runBounded(["hooks:emit", h.project, "--json"], { h, stdin: payload })).stdout) as { sessionKey: string };
    editStore(h, "UPDATE agent_runs SET agent_name = ? WHERE session_key = ?", "@../../../outside/bait", first.sessionKey);
    writeFileSync(join(h.outside, "bait.json"), JSON.stringify({ runKey: "whatever" }));
    const before = outsideState(h);
    const run = await runBounded(["hooks:emit", h.project, "--event=SessionEnd", "--json"], { h, stdin: JSON.stringify({ session_id: "S-1" }), env: { AIOSON_LIVE_SESSION: first.sessionKey } });
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true });
    expect(rows(h.project, "SELECT status FROM agent_runs WHERE session_key = ?", first.sessionKey)).toEqual([{ status: "completed" }]);
    expect(outsideState(h)).toEqual(before);
    expect(hookLogOf(h)).toContain("is not an agent id");
  });

  test("a state.json whose own session_key climbs out is not rewritten there", async () => {
    const h = hostileProject();
    const first = JSON.parse((await runBounded(["hooks:emit", h.project, "--json"], { h, stdin: payload })).stdout) as { sessionKey: string };
    const statePath = join(runtimeOf(h.project), "live", first.sessionKey, "state.json");
    const state = JSON.parse(readFileSync(statePath, "utf8")) as Record<string, unknown>;
    writeFileSync(statePath, JSON.stringify({ ...state, session_key: "../../../../outside/evil" }));
    const before = outsideState(h);
    await runBounded(["hooks:emit", h.project], { h, stdin: payload });
    await runBounded(["runtime:emit", h.project, "--agent=dev", "--summary=x"], { h });
    await runBounded(["live:status", h.project, "--json"], { h });
    expect(outsideState(h)).toEqual(before);
  });

  test("a pointer whose keys climb out is ignored (a new hooks session is started instead)", async () => {
    const h = hostileProject();
    runAioson(["runtime:init", h.project], { home: h.home });
    writeFileSync(join(runtimeOf(h.project), ".gitignore"), "*\n");
    Bun.spawnSync(["mkdir", "-p", join(runtimeOf(h.project), ".sessions")]);
    writeFileSync(
      join(runtimeOf(h.project), ".sessions", "@dev.json"),
      JSON.stringify({ runKey: "../../../outside/run", sessionKey: "../../../outside/session", finished: false, owner: "live" }),
    );
    const before = outsideState(h);
    const run = await runBounded(["hooks:emit", h.project, "--json"], { h, stdin: payload });
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, autoStarted: true });
    expect(outsideState(h)).toEqual(before);
  });

  test("a live/ folder name that is no session key is skipped by live:status", async () => {
    const h = hostileProject();
    await runBounded(["hooks:emit", h.project], { h, stdin: payload });
    Bun.spawnSync(["mkdir", "-p", join(runtimeOf(h.project), "live", "..weird")]);
    const run = await runBounded(["live:status", h.project, "--json"], { h });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true });
  });
});
