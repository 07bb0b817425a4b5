/** Bad input and faults (issue 3): exit 0, valid output, the cause in the hook log, never a hang. */
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, cleanupTemp, runAioson, tempDir, tempProject, testEnv } from "../helpers.ts";
import { emit, events, hookLog, storeExists } from "./helpers.ts";

afterAll(cleanupTemp);

const write = { hook_event_name: "PostToolUse", tool_name: "Write", tool_input: { file_path: "a.ts" }, session_id: "S" };

describe("hooks:emit — bad payloads", () => {
  test("empty stdin", () => {
    const project = tempProject();
    const empty = join(tempDir(), "empty.json");
    writeFileSync(empty, "");
    const result = Bun.spawnSync([BINARY, "hooks:emit", project, "--json"], { stdin: Bun.file(empty), env: testEnv(tempDir()) });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout.toString())).toEqual({ ok: true, skipped: true });
    expect(hookLog(project)).toContain("no payload (empty)");
    expect(storeExists(project)).toBe(false);
  });

  test("stdin that is never closed: bounded wait, no payload", async () => {
    const project = tempProject();
    const proc = Bun.spawn([BINARY, "hooks:emit", project, "--json"], { stdin: "pipe", stdout: "pipe", env: testEnv(tempDir()) });
    const bound = new Promise<"hung">((settle) => setTimeout(() => settle("hung"), 4_000));
    const outcome = await Promise.race([proc.exited, bound]);
    if (outcome === "hung") proc.kill(9);
    expect(outcome).toBe(0);
    expect(JSON.parse(await new Response(proc.stdout).text())).toEqual({ ok: true, skipped: true });
    expect(hookLog(project)).toContain("no payload (no-data)");
  });

  test("a payload whose stdin is never closed: given up after the total bound, logged", async () => {
    const project = tempProject();
    const proc = Bun.spawn([BINARY, "hooks:emit", project, "--json"], { stdin: "pipe", stdout: "pipe", env: testEnv(tempDir()) });
    proc.stdin.write(JSON.stringify(write));
    proc.stdin.flush();
    const bound = new Promise<"hung">((settle) => setTimeout(() => settle("hung"), 9_000));
    const outcome = await Promise.race([proc.exited, bound]);
    if (outcome === "hung") proc.kill(9);
    expect(outcome).toBe(0);
    expect(JSON.parse(await new Response(proc.stdout).text())).toEqual({ ok: true, skipped: true });
    expect(hookLog(project)).toContain("no payload (timeout)");
    expect(storeExists(project)).toBe(false);
  }, 15_000);

  test.each([
    ["not JSON", "{tool_name: Write", "invalid-json"],
    ["a JSON array", "[1,2,3]", "not-an-object"],
    ["a JSON string", '"PostToolUse"', "not-an-object"],
    ["JSON null", "null", "not-an-object"],
    ["binary junk", new Uint8Array([0, 255, 254, 1, 2, 3, 0x7b]), "invalid-json"],
  ] as const)("%s → skipped and logged", (_label, stdin, reason) => {
    const project = tempProject();
    const run = emit(project, typeof stdin === "string" ? stdin : Buffer.from(stdin).toString("latin1"));
    expect(run.code).toBe(0);
    expect(run.result).toEqual({ ok: true, skipped: true });
    expect(hookLog(project)).toContain(`no payload (${reason})`);
  });

  test("invalid UTF-8 inside a string field is replaced, the event still lands", () => {
    const project = tempProject();
    const bytes = Buffer.concat([Buffer.from('{"hook_event_name":"PostToolUse","tool_name":"Write","session_id":"S","tool_input":{"file_path":"caf'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('.ts"}}')]);
    const run = runAioson(["hooks:emit", project, "--json"], { stdin: new Uint8Array(bytes) });
    expect(run.code).toBe(0);
    expect((run.json as Record<string, unknown>).ok).toBe(true);
    expect(events(project).at(-1)?.message).toStartWith("Write: caf");
  });

  test("a 10 MB payload: the path is stored, the content is not", () => {
    const project = tempProject();
    const big = { ...write, tool_input: { file_path: "big.txt", content: "B".repeat(10 * 1024 * 1024) } };
    const run = emit(project, big);
    expect(run.code).toBe(0);
    expect(run.result).toMatchObject({ ok: true, message: "Write: big.txt" });
    expect(events(project).every((row) => (row.payload_json ?? "").length < 1000)).toBe(true);
  });

  test("a 10 MB Bash output is scanned without storing it", () => {
    const project = tempProject();
    const output = `${"line\n".repeat(2 * 1024 * 1024)}Tests: 4 passed\nProcess exited with code 0\n`;
    const run = emit(project, { hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "npm test" }, tool_response: output, session_id: "S" }, ["--source=codex"]);
    expect(run.code).toBe(0);
    const payload = JSON.parse(events(project).at(-1)?.payload_json ?? "{}");
    expect(payload).toMatchObject({ outcome: "passed", exit_code: 0, summary: "Tests: 4 passed" });
  });

  test("unknown events, unknown tools and missing fields", () => {
    const project = tempProject();
    expect(emit(project, { hook_event_name: "Teleport", session_id: "S" }).result).toEqual({ ok: true, skipped: true });
    expect(emit(project, { hook_event_name: "PostToolUse", session_id: "S" }).result).toEqual({ ok: true, skipped: true });
    expect(emit(project, { hook_event_name: "PreToolUse", tool_name: "Write", tool_input: { file_path: "a" } }).result).toEqual({ ok: true, skipped: true });
    expect(emit(project, { hook_event_name: "SessionStart", source: "startup" }).result).toEqual({ ok: true, skipped: true });
    expect(emit(project, { session_id: "S", cwd: "/x" }).result).toEqual({ ok: true, skipped: true });
    expect(storeExists(project)).toBe(false);
    const log = hookLog(project);
    expect(log).toContain("unknown event: Teleport");
    expect(log).toContain("PostToolUse without tool_name");
    expect(log).toContain("payload names no event");
    expect(emit(project, { hook_event_name: "PostToolUse", tool_name: "FrobnicateTool", tool_input: 5, tool_response: [1] }).result).toMatchObject({ ok: true, message: "[claude] FrobnicateTool" });
    expect(emit(project, { hook_event_name: "PostToolUse", tool_name: "Bash", session_id: "S" }).result).toMatchObject({ ok: true, message: "Bash" });
  });
});

describe("hooks:emit — faults", () => {
  test("a corrupted store: {ok:false}, exit 0, logged", () => {
    const project = tempProject();
    mkdirSync(join(project, ".aioson", "runtime"), { recursive: true });
    writeFileSync(join(project, ".aioson", "runtime", "aios.sqlite"), "this is not a database at all, just junk bytes ".repeat(200));
    const run = emit(project, write);
    expect(run.code).toBe(0);
    expect(run.result).toEqual({ ok: false });
    expect(hookLog(project)).toMatch(/hooks:emit .*(not a database|SQLITE_NOTADB|malformed|file is not)/i);
    expect(emit(project, null).code).toBe(0);
  });

  test("a read-only store: {ok:false}, exit 0, logged, bounded", () => {
    const project = tempProject();
    expect(emit(project, write).result.ok).toBe(true);
    const runtime = join(project, ".aioson", "runtime");
    for (const name of ["aios.sqlite", "aios.sqlite-wal", "aios.sqlite-shm"]) if (existsSync(join(runtime, name))) chmodSync(join(runtime, name), 0o444);
    chmodSync(runtime, 0o555);
    chmodSync(project, 0o755);
    chmodSync(join(project, ".aioson"), 0o755);
    // root ignores permission bits, so the binary runs as nobody when the suite runs as root.
    const asNobody = process.getuid?.() === 0 ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : [];
    const home = tempDir();
    chmodSync(home, 0o777);
    const result = Bun.spawnSync([...asNobody, BINARY, "hooks:emit", project, "--json"], {
      stdin: new TextEncoder().encode(JSON.stringify({ ...write, tool_input: { file_path: "b.ts" } })),
      env: testEnv(home),
      timeout: 15_000,
    });
    chmodSync(runtime, 0o755);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout.toString())).toEqual({ ok: false });
    expect(events(project).map((row) => row.message)).not.toContain("Write: b.ts");
  });

  test("a project whose .aioson/runtime was removed starts over", () => {
    const project = tempProject();
    emit(project, write);
    rmSync(join(project, ".aioson", "runtime"), { recursive: true, force: true });
    const run = emit(project, write);
    expect(run.result).toMatchObject({ ok: true, autoStarted: true });
    expect(events(project).map((row) => row.event_type)).toEqual(["session_started", "artifact"]);
  });
});
