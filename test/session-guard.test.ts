import { afterAll, describe, expect, test } from "bun:test";
import { appendFileSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, cleanupTemp, rows, runAioson, tempDir, tempProject, testEnv } from "./helpers.ts";

afterAll(cleanupTemp);

type Json = Record<string, any>;
const runtime = (project: string, ...parts: string[]): string => join(project, ".aioson", "runtime", ...parts);
const sessionFile = (project: string, sessionKey: string, name: string): string => runtime(project, "live", sessionKey.replaceAll(":", "__"), name);
const readJson = (path: string): Json => JSON.parse(readFileSync(path, "utf8"));

const banner = (project: string, agent = "@dev", tool = "claude", idle = "60m"): string =>
  [`[session:guard] Watching: ${project}`, `[session:guard] Agent: ${agent} | Tool: ${tool} | Idle timeout: ${idle}`, "[session:guard] Press Ctrl+C to stop.", ""].join("\n");

describe("session:guard --once", () => {
  test("(109) starts a guard session: banner on stdout, started line on stderr, rows and files", () => {
    const project = tempProject();
    const run = runAioson(["session:guard", ".", "--once"], { cwd: project });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(banner(project));
    const match = /^\[session:guard\] Session started: (guard-dev-\d+) \(run: (dev-\d+)\)\n$/.exec(run.stderr);
    expect(match).not.toBeNull();
    const [, sessionKey = "", runKey = ""] = match ?? [];
    const [task] = rows<Json>(project, "SELECT * FROM tasks");
    expect(task).toMatchObject({ title: "[guard] dev via claude", task_kind: "live_session", status: "running", session_key: sessionKey });
    expect(JSON.parse(task?.meta_json)).toMatchObject({ tool_session: "claude", path: project, guarded: true, owner: "guard" });
    expect(rows<Json>(project, "SELECT run_key, agent_name, source, status FROM agent_runs")).toEqual([{ run_key: runKey, agent_name: "@dev", source: "live", status: "running" }]);
    expect(rows<Json>(project, "SELECT event_type, message FROM execution_events")).toEqual([
      { event_type: "session_started", message: "Session auto-started by session:guard (claude)" },
    ]);
    expect(readJson(runtime(project, ".sessions", "@dev.json"))).toMatchObject({ runKey, sessionKey, finished: false, owner: "guard" });
    const state = readJson(sessionFile(project, sessionKey, "state.json"));
    expect(state).toMatchObject({ owner: "guard", phase: "active", tool_session: "claude" });
    expect(state.last_events[0]).toMatchObject({ type: "session_started", summary: "Auto-started by session:guard (claude)" });
    expect(existsSync(sessionFile(project, sessionKey, "events.ndjson"))).toBe(true);

    const again = runAioson(["session:guard", project, "--once", "--json"]);
    expect(again.code).toBe(0);
    expect(again.stderr).toBe("");
    expect(again.json).toEqual({ ok: true, runKey, sessionKey, started: false, closed: false });
  });

  test("(110) an idle session (last ndjson ts 62 minutes old) is closed", () => {
    const project = tempProject();
    const started = runAioson(["session:guard", project, "--once", "--json", "--agent=qa", "--tool=codex"]).json as Json;
    expect(started.started).toBe(true);
    const old = new Date(Date.now() - 62 * 60_000).toISOString();
    appendFileSync(sessionFile(project, started.sessionKey, "events.ndjson"), `${JSON.stringify({ ts: old, type: "note", summary: "old" })}\n`);
    const run = runAioson(["session:guard", project, "--once", "--idle-minutes=60", "--agent=qa", "--tool=codex"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(banner(project, "@qa", "codex"));
    expect(run.stderr).toBe(
      `[session:guard] Idle for 62m — closing session\n[session:guard] Session closed: ${started.runKey} (Idle for 62 minutes)\n`,
    );
    expect(rows<Json>(project, "SELECT status, summary FROM agent_runs")[0]).toEqual({ status: "completed", summary: "Idle for 62 minutes" });
    expect(rows<Json>(project, "SELECT status FROM tasks")[0]?.status).toBe("completed");
    const events = rows<Json>(project, "SELECT event_type, phase, status, message FROM execution_events ORDER BY id");
    expect(events.map((event) => event.event_type)).toEqual(["session_started", "session_ended"]);
    expect(events[1]).toEqual({ event_type: "session_ended", phase: "live", status: "completed", message: "Session closed by session:guard: Idle for 62 minutes" });
    expect(existsSync(runtime(project, ".sessions", "@qa.json"))).toBe(false);
    expect(readJson(sessionFile(project, started.sessionKey, "state.json"))).toMatchObject({ phase: "closed", closed_at: expect.any(String) });
  });

  test("an idle live:start session named by the pointer is closed too; --json reports it", () => {
    const project = tempProject();
    const live = runAioson(["live:start", project, "--tool=claude", "--agent=dev", "--no-launch", "--json"]).json as Json;
    const old = new Date(Date.now() - 200 * 60_000).toISOString();
    appendFileSync(sessionFile(project, live.sessionKey, "events.ndjson"), `${JSON.stringify({ ts: old, type: "note" })}\n`);
    const run = runAioson(["session:guard", project, "--once", "--json", "--idle-minutes=120"]);
    expect(run.json).toEqual({ ok: true, runKey: null, sessionKey: null, started: false, closed: true });
    expect(run.stderr).toContain("[session:guard] Idle for 200m — closing session");
    expect(rows<Json>(project, "SELECT status FROM agent_runs")[0]?.status).toBe("completed");
  });

  test("(111) outside a project: exit 1, clear error, nothing created", () => {
    const dir = tempDir();
    const home = tempDir("aioson-home-");
    const run = runAioson(["session:guard", "--once"], { cwd: dir, home });
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe("Error: not inside an AIOSON project");
    expect(run.stdout).toBe("");
    expect(readdirSync(dir)).toEqual([]);
    expect(readdirSync(home)).toEqual([]);
  });
});

describe("session:guard loop", () => {
  async function guardUntilStarted(project: string, extra: string[]): Promise<{ child: Bun.Subprocess<"ignore", "pipe", "pipe">; home: string }> {
    const home = tempDir("aioson-home-");
    const child = Bun.spawn([BINARY, "session:guard", project, "--interval=100", ...extra], { env: testEnv(home), stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    for (let i = 0; i < 100 && !existsSync(runtime(project, ".sessions", "@dev.json")); i++) await Bun.sleep(20);
    await Bun.sleep(250);
    return { child, home };
  }

  test("SIGTERM stops polling, closes the session this guard started, prints Stopped., exits 0", async () => {
    const project = tempProject();
    const { child } = await guardUntilStarted(project, []);
    child.kill("SIGTERM");
    const code = await child.exited;
    const stdout = await new Response(child.stdout).text();
    const stderr = await new Response(child.stderr).text();
    expect(code).toBe(0);
    expect(stdout).toBe(`${banner(project)}[session:guard] Stopped.\n`);
    const runKey = /run: (dev-\d+)/.exec(stderr)?.[1];
    expect(stderr).toContain(`[session:guard] Session closed: ${runKey} (session:guard stopped)`);
    expect(rows<Json>(project, "SELECT status, summary FROM agent_runs")).toEqual([{ status: "completed", summary: "session:guard stopped" }]);
    expect(existsSync(runtime(project, ".sessions", "@dev.json"))).toBe(false);
  });

  test("SIGINT with --json: no banner, no Stopped line; a session it did not start stays open", async () => {
    const project = tempProject();
    runAioson(["live:start", project, "--tool=claude", "--agent=dev", "--no-launch"]);
    const { child } = await guardUntilStarted(project, ["--json"]);
    child.kill("SIGINT");
    expect(await child.exited).toBe(0);
    expect(await new Response(child.stdout).text()).toBe("");
    expect(await new Response(child.stderr).text()).toBe("");
    expect(rows<Json>(project, "SELECT status FROM agent_runs")).toEqual([{ status: "running" }]);
  });
});
