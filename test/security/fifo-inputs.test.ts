/**
 * Issue 11 item 6, files named by a payload, a flag or the project: opened only when they are regular files. A FIFO
 * (nobody ever writes to it), a device or a folder is refused without blocking; every command ends within the bound
 * (3 s, far under any harness timeout) and a hook still exits 0.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTemp, runAioson } from "../helpers.ts";
import { hostileProject, NAMING_RULE, namingWrite, runBounded, WRITE_PAYLOAD, type Hostile } from "./paths-helpers.ts";

afterAll(cleanupTemp);

function fifo(path: string): string {
  mkdirSync(join(path, ".."), { recursive: true });
  expect(Bun.spawnSync(["mkfifo", path]).exitCode).toBe(0);
  return path;
}

function withSession(h: Hostile): void {
  runAioson(["hooks:emit", h.project], { stdin: JSON.stringify(WRITE_PAYLOAD), home: h.home });
}

describe("transcript_path", () => {
  const targets = (h: Hostile): Record<string, string> => ({ fifo: fifo(join(h.base, "transcript.jsonl")), device: "/dev/zero", folder: h.outside });

  for (const kind of ["fifo", "device", "folder"] as const) {
    test(`a ${kind} as transcript_path: hooks:emit Stop ends, exit 0, nothing read`, async () => {
      const h = hostileProject();
      withSession(h);
      const stop = JSON.stringify({ hook_event_name: "Stop", session_id: "S-1", transcript_path: targets(h)[kind] });
      const run = await runBounded(["hooks:emit", h.project, "--source=copilot", "--json"], { h, stdin: stop });
      expect(run.timedOut).toBe(false);
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual({ ok: true, skipped: true });
    });

    for (const guard of ["guard:verify-claims", "guard:context-confidence-check"]) {
      test(`a ${kind} as transcript_path: ${guard} ends and lets the stop through`, async () => {
        const h = hostileProject();
        const stop = JSON.stringify({ hook_event_name: "Stop", session_id: "S-1", cwd: h.project, transcript_path: targets(h)[kind], last_assistant_message: "I changed src/a.ts and src/b.ts" });
        const run = await runBounded([guard, h.project], { h, stdin: stop });
        expect(run.timedOut).toBe(false);
        expect(run.code).toBe(0);
        expect(run.stdout).not.toContain('"decision":"block"');
      });
    }
  }
});

describe("--event-file", () => {
  test("a FIFO is refused without waiting for a writer", async () => {
    const h = hostileProject();
    const run = await runBounded(["context:guard", h.project, "--json", `--event-file=${fifo(join(h.base, "event.json"))}`], { h });
    expect(run.timedOut).toBe(false);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({});
  });

  test("a folder is refused", async () => {
    const h = hostileProject();
    const run = await runBounded(["context:guard", h.project, "--json", `--event-file=${h.outside}`], { h });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({});
  });

  test("a regular file still works", async () => {
    const h = hostileProject();
    const file = join(h.base, "event.json");
    writeFileSync(file, JSON.stringify({ tool_name: "Write", tool_input: { file_path: "src/a.ts", content: "x" } }));
    const run = await runBounded(["context:guard", h.project, "--json", `--event-file=${file}`], { h });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({});
  });
});

describe("project files that are FIFOs", () => {
  test.each(["workflow.state.json", "dev-state.md", "project-pulse.md"])(".aioson/context/%s as a FIFO: hooks:recap ends, exit 0", async (name) => {
    const h = hostileProject();
    withSession(h);
    fifo(join(h.project, ".aioson", "context", name));
    const run = await runBounded(["hooks:recap", h.project, "--when=always"], { h, stdin: JSON.stringify({ hook_event_name: "SessionStart", source: "compact", session_id: "S-1" }) });
    expect(run.timedOut).toBe(false);
    expect(run.code).toBe(0);
  });

  test("the file being written is a FIFO: context:guard ends with an answer", async () => {
    const h = hostileProject();
    mkdirSync(join(h.project, ".aioson", "rules"), { recursive: true });
    writeFileSync(join(h.project, ".aioson", "rules", "size.md"), "---\nname: size\ndescription: Keep files small\nchecker: file-size\n---\n- MUST keep files short\n");
    fifo(join(h.project, "src", "pipe.ts"));
    const event = JSON.stringify({ tool_name: "Edit", tool_input: { file_path: "src/pipe.ts", old_string: "a", new_string: "b" } });
    const run = await runBounded(["context:guard", h.project, "--json", `--event=${event}`], { h });
    expect(run.timedOut).toBe(false);
    expect(run.code).toBe(0);
  });

  test(".aioson/context/rules-baseline.json as a FIFO: context:guard still injects the rule", async () => {
    const h = hostileProject();
    mkdirSync(join(h.project, ".aioson", "rules"), { recursive: true });
    writeFileSync(join(h.project, ".aioson", "rules", "naming.md"), NAMING_RULE);
    fifo(join(h.project, ".aioson", "context", "rules-baseline.json"));
    const run = await runBounded(["context:guard", h.project, "--json"], { h, stdin: JSON.stringify(namingWrite(h.project)) });
    expect(run.timedOut).toBe(false);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Write identifiers in English");
  });

  test("state.json and a pointer as FIFOs: hooks:emit, live:status and session:guard end", async () => {
    const h = hostileProject();
    const first = runAioson(["hooks:emit", h.project, "--json"], { stdin: JSON.stringify(WRITE_PAYLOAD), home: h.home });
    const sessionKey = (first.json as { sessionKey: string }).sessionKey;
    const runtime = join(h.project, ".aioson", "runtime");
    Bun.spawnSync(["rm", join(runtime, "live", sessionKey, "state.json"), join(runtime, ".sessions", "@dev.json")]);
    fifo(join(runtime, "live", sessionKey, "state.json"));
    fifo(join(runtime, ".sessions", "@dev.json"));
    for (const args of [["hooks:emit", h.project], ["live:status", h.project, "--json"], ["session:guard", h.project, "--once", "--json"]]) {
      const run = await runBounded(args, { h, stdin: args[0] === "hooks:emit" ? JSON.stringify(WRITE_PAYLOAD) : null });
      expect(run.timedOut).toBe(false);
      expect(run.code).toBe(0);
    }
  });

  test("live:start --plan naming a FIFO is a clear error", async () => {
    const h = hostileProject();
    const run = await runBounded(["live:start", h.project, "--tool=claude", "--no-launch", `--plan=${fifo(join(h.base, "plan.md"))}`], { h });
    expect(run.timedOut).toBe(false);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Plan file not readable");
  });
});
