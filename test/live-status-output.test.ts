/**
 * What `live:status` says to a person, through the real binary: a failed command marked in the recent events (the
 * `✗` of every other failure, red on a terminal, plain words when piped; `outcome`/`exitCode` added to those events in
 * --json), one line on what to do when nothing was recorded yet, and `--watch` as a switch that keeps the directory.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { BINARY, cleanupTemp, onTerminal, runAioson, tempDir, tempProject } from "./helpers.ts";

afterAll(cleanupTemp);

type Event = { ts: string; type: string; summary: string; outcome?: string; exitCode?: number | null };

function emit(project: string, home: string, payload: Record<string, unknown>): void {
  const run = runAioson(["hooks:emit", project, "--agent=dev", "--source=claude"], { home, stdin: JSON.stringify({ session_id: "S", cwd: project, ...payload }) });
  expect(run.code).toBe(0);
}

/** A hooks session with a command that passed, one that failed with an exit code, and one that failed without. */
function sessionWithFailures(): { project: string; home: string } {
  const home = tempDir("aioson-home-");
  const project = tempProject();
  emit(project, home, { hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_response: { stdout: "a", stderr: "", interrupted: false } });
  emit(project, home, { hook_event_name: "PostToolUseFailure", tool_name: "Bash", tool_input: { command: "npm test" }, error: "Exit code 1\n3 failed" });
  emit(project, home, { hook_event_name: "PostToolUseFailure", tool_name: "Bash", tool_input: { command: "make" }, error: "interrupted" });
  return { project, home };
}

const NOTHING = "start a session of your coding agent in this project, or run `aioson hooks:doctor` to check that the hooks fire.";

describe("live:status output", () => {
  test("a failed command is marked at the end of its line, with its exit code when known; the others are untouched", () => {
    const { project, home } = sessionWithFailures();
    const text = runAioson(["live:status", project, "--agent=dev"], { home }).stdout;
    const events = text.split("\n").filter((line) => line.startsWith("- "));
    expect(events.map((line) => line.replace(/^- \S+ \| /, ""))).toEqual([
      "session_started | Auto-started by hooks:emit (claude)",
      "step_done | $ ls",
      "step_done | $ npm test | ✗ failed (exit 1)",
      "step_done | $ make | ✗ failed",
    ]);
    expect(text).not.toContain("\x1b");
    expect(text).not.toContain("Nothing recorded yet");
  });

  test("--json: spec 11's {ts, type, summary}, and outcome/exitCode on the failed commands only", () => {
    const { project, home } = sessionWithFailures();
    const events = (runAioson(["live:status", project, "--agent=dev", "--json"], { home }).json as { recentEvents: Event[] }).recentEvents;
    expect(events.map(({ ts: _ts, ...rest }) => rest)).toEqual([
      { type: "session_started", summary: "Auto-started by hooks:emit (claude)" },
      { type: "step_done", summary: "$ ls" },
      { type: "step_done", summary: "$ npm test", outcome: "failed", exitCode: 1 },
      { type: "step_done", summary: "$ make", outcome: "failed", exitCode: null },
    ]);
  });

  test("on a terminal the mark and its words are red, as every other failure; NO_COLOR gives the piped text", () => {
    const { project, home } = sessionWithFailures();
    const shown = onTerminal(["live:status", project, "--agent=dev"], home);
    expect(shown).toMatch(/\| step_done \| \$ npm test \| \x1b\[31m✗ failed \(exit 1\)\x1b\[39m\n/);
    expect(shown).toMatch(/\| step_done \| \$ ls\n/);
    const piped = runAioson(["live:status", project, "--agent=dev"], { home }).stdout;
    expect(shown.replace(/\x1b\[[0-9;]*m/g, "")).toBe(piped);
    expect(onTerminal(["live:status", project, "--agent=dev"], home, { NO_COLOR: "1" })).toBe(piped);
  });

  test("nothing recorded yet: spec 11's lines, then what to do; for the agent asked about when --agent names one", () => {
    const home = tempDir("aioson-home-");
    const project = tempProject();
    expect(runAioson(["runtime:init", project], { home }).code).toBe(0);
    const text = runAioson(["live:status", project], { home }).stdout;
    expect(text).toEndWith(`Recent events: none\nNothing recorded yet: ${NOTHING}\n`);
    expect(runAioson(["live:status", project, "--agent=qa"], { home }).stdout).toEndWith(`Recent events: none\nNothing recorded yet for @qa: ${NOTHING}\n`);
    // The JSON snapshot keeps its keys (spec 11's, and guardEvents); the format for dashboard panes stays one line.
    const json = runAioson(["live:status", project, "--json"], { home }).json as Record<string, unknown>;
    expect(Object.keys(json)).toEqual(["ok", "targetDir", "dbPath", "agent", "tool", "phase", "open", "processState", "pid", "sessionKey", "startedAt", "updatedAt", "closedAt", "title", "currentTask", "run", "task", "stats", "recentEvents", "guardEvents", "contextEstimated", "warning"]);
    expect(runAioson(["live:status", project, "--format=compact"], { home }).stdout).toBe("- | idle | none | events 0\n");
    // Once something is recorded, the line is gone.
    emit(project, home, { hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_response: { stdout: "", stderr: "", interrupted: false } });
    expect(runAioson(["live:status", project], { home }).stdout).not.toContain("Nothing recorded yet");
  });

  test("--watch takes its seconds or none, and never the directory after it", async () => {
    const { project, home } = sessionWithFailures();
    for (const args of [["--watch", project], ["--watch", "0.2", project], ["--watch=0.2", project]]) {
      const child = Bun.spawn([BINARY, "live:status", ...args, "--agent=dev"], { cwd: home, env: { PATH: process.env.PATH ?? "", HOME: home }, stdout: "pipe", stderr: "pipe" });
      await Bun.sleep(500);
      child.kill("SIGTERM");
      expect({ args, code: await child.exited }).toEqual({ args, code: 0 });
      const out = await new Response(child.stdout).text();
      // From HOME (not a project), only the project given after --watch shows this session.
      expect({ args, shown: out.includes("$ npm test | ✗ failed (exit 1)") }).toEqual({ args, shown: true });
    }
  });
});
