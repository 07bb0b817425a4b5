/**
 * Issue 11 items 2, 3 and 6: path-like and label values (`../`, `..\`, absolute paths, NUL, control characters, `:`
 * runs, very long, Unicode, Windows device names) through every way a value reaches a path or a row: flags
 * (`live:start --session`, `--agent`, `--source`), payload fields (`session_id`, `cwd`, `transcript_path`, file
 * paths), a pointer, a state.json and store rows. Nothing outside the project may change, and nothing may crash:
 * hooks exit 0 with JSON, people-facing commands exit 0 or fail with `Error: …`.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTemp, runAioson } from "../helpers.ts";
import { editStore, type Hostile, hostileProject, isUserRegistry, runtimeOf, snapshot, WRITE_PAYLOAD } from "./paths-helpers.ts";

afterAll(cleanupTemp);

const VALUES = [
  "../../../outside/x",
  "..\\..\\..\\outside\\x",
  "..",
  ".",
  "/tmp/aioson-fuzz-absolute",
  "C:\\Windows\\System32",
  "\\\\server\\share",
  "a\u0000b",
  "\u0001\u0002\u001b[31m\u007f",
  "line\r\nbreak",
  "::::::",
  "a:b:../c",
  "CON",
  "nul.txt",
  "x".repeat(5_000),
  "ç/é/日本/😀",
  "\u202e\u200b\ufeff",
  "$(touch pwned)",
  "`id`;rm -rf ~",
  "%2e%2e%2f",
];

/** Everything in the temp root that is not the project itself (nor the user's registry in HOME): must not change. */
function outsideProject(h: Hostile): Record<string, string> {
  return Object.fromEntries(
    Object.entries(snapshot(h.base)).filter(([path]) => path !== "project" && !path.startsWith("project/") && !(path.startsWith("home/") && isUserRegistry(path.slice(5)))),
  );
}

/** NUL cannot travel in argv: flags get the value without it. */
function argv(value: string): string {
  return value.replaceAll("\u0000", "");
}

function expectHookOk(run: { code: number; stdout: string; stderr: string }): void {
  expect(run.code).toBe(0);
  expect(() => JSON.parse(run.stdout)).not.toThrow();
  expect(run.stderr).toBe("");
}

function expectCommandOk(run: { code: number; stderr: string }): void {
  expect([0, 1]).toContain(run.code);
  if (run.code === 1) expect(run.stderr).toStartWith("Error: ");
  expect(run.stderr).not.toMatch(/TypeError|RangeError|panic|Segmentation/);
}

describe("fuzzed values", () => {
  for (const [index, value] of VALUES.entries()) {
    test(`value #${index} ${JSON.stringify(value.slice(0, 24))}`, () => {
      const h = hostileProject();
      const before = outsideProject(h);
      const home = h.home;
      const hook = (args: string[], payload: unknown, env?: Record<string, string>) =>
        runAioson(["hooks:emit", h.project, ...args, "--json"], { stdin: JSON.stringify(payload), home, env });

      // Flags of the people-facing commands.
      expectCommandOk(runAioson(["live:start", h.project, "--tool=claude", "--no-launch", `--session=${argv(value)}`], { home }));
      expectCommandOk(runAioson(["live:start", h.project, "--tool=claude", "--no-launch", `--agent=${argv(value)}`], { home }));
      expectCommandOk(runAioson(["runtime:emit", h.project, `--agent=${argv(value)}`, `--type=${argv(value)}`, `--summary=${argv(value)}`], { home }));
      expectCommandOk(runAioson(["agent:done", h.project, `--agent=${argv(value)}`, `--artifacts=${argv(value)}`], { home }));
      expectCommandOk(runAioson(["live:status", h.project, `--agent=${argv(value)}`], { home }));

      // Hook flags and payload fields.
      expectHookOk(hook([`--agent=${argv(value)}`, `--source=${argv(value)}`], { ...WRITE_PAYLOAD, session_id: value, cwd: value, tool_input: { file_path: value } }));
      expectHookOk(hook([], { hook_event_name: "Stop", session_id: value, transcript_path: value }, { AIOSON_LIVE_SESSION: argv(value) }));
      expectHookOk(hook([], { hook_event_name: "PreCompact", session_id: value, trigger: value }));
      expectHookOk(hook([], { hook_event_name: "PostToolUse", tool_name: "apply_patch", session_id: value, tool_input: { command: `*** Begin Patch\n*** Add File: ${value}\n*** End Patch` } }, {}));
      expectHookOk(hook([], { hook_event_name: "UserPromptSubmit", session_id: value, prompt: `/aioson:agent:${value}` }));
      const recap = runAioson(["hooks:recap", h.project, "--when=always", `--session=${argv(value)}`], { stdin: JSON.stringify({ session_id: value }), home });
      expect(recap.code).toBe(0);

      // The same value read back: store rows, a pointer and a state.json.
      const runtime = runtimeOf(h.project);
      editStore(h, "UPDATE agent_runs SET session_key = ?, agent_name = ?", value, `@${value}`);
      editStore(h, "UPDATE tasks SET session_key = ?", value);
      mkdirSync(join(runtime, ".sessions"), { recursive: true });
      writeFileSync(join(runtime, ".sessions", "@dev.json"), JSON.stringify({ runKey: value, taskKey: value, sessionKey: value, finished: false, owner: "live" }));
      const liveDir = join(runtime, "live", "fuzzed");
      mkdirSync(liveDir, { recursive: true });
      writeFileSync(
        join(liveDir, "state.json"),
        JSON.stringify({ session_key: value, session_task_key: value, tool_session: value, active_agent: "@dev", phase: "active", started_at: "x", updated_at: "y", current_run_key: value }),
      );
      expectHookOk(hook([], WRITE_PAYLOAD));
      expectHookOk(hook(["--event=SessionEnd"], { session_id: "S-1" }, { AIOSON_LIVE_SESSION: argv(value) }));
      expectCommandOk(runAioson(["runtime:emit", h.project, "--agent=dev", "--summary=after"], { home }));
      expectCommandOk(runAioson(["agent:done", h.project, "--agent=dev"], { home }));
      expectCommandOk(runAioson(["live:status", h.project, "--json"], { home }));
      expectCommandOk(runAioson(["runtime:status", h.project, "--json"], { home }));
      expectCommandOk(runAioson(["session:guard", h.project, "--once", "--idle-minutes=0.0001"], { home }));

      expect(outsideProject(h)).toEqual(before);
      expect(existsSync("/tmp/aioson-fuzz-absolute")).toBe(false);
    }, 60_000);
  }
});
