/**
 * Codex CLI 0.169.0 at exit: `codex exec` kills the async hooks still running when it ends, about 30 ms after the
 * last synchronous one. aioson's handlers are all synchronous: over several short sessions every last message
 * (Stop) is stored and every hooks session is closed (SessionEnd). A user's async Stop probe that sleeps 0.3 s next
 * to them never finishes — the behaviour that made an async Stop lose the last message. Then one response with
 * four parallel tool calls: every PostToolUse lands, and live:status shows all of them.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CodexRun } from "../lib/drivers/codex.ts";
import { CodexBench, ran } from "./bench.ts";

const SESSIONS = 5;
const PARALLEL = 4;

let bench: CodexBench;
const runs: CodexRun[] = [];
let parallel: CodexRun;
let probeLog: string;

beforeAll(async () => {
  bench = await CodexBench.create();
  probeLog = join(bench.world.root, "async-probe.log");
  const hooks = JSON.parse(bench.readHooks()) as { hooks: Record<string, unknown[]> };
  const probe = `sh -c 'echo start >> "${probeLog}"; sleep 0.3; echo end >> "${probeLog}"'`;
  hooks.hooks.Stop = [...(hooks.hooks.Stop ?? []), { hooks: [{ type: "command", command: probe, timeout: 30, async: true }] }];
  writeFileSync(bench.hooksPath, JSON.stringify(hooks, null, 2));
  for (let i = 1; i <= SESSIONS; i++) runs.push(await bench.run({ prompt: `Quick question ${i}?`, script: { turns: [{ text: `Answer ${i}: nothing to change.` }] } }));
  parallel = await bench.run({
    prompt: "Check the four packages.",
    script: {
      turns: [
        { tools: Array.from({ length: PARALLEL }, (_, i) => ({ id: `call_pkg_${i}`, name: "exec_command", input: { cmd: `echo package ${i}` } })) },
        { text: "All four packages answer." },
      ],
    },
  });
});

afterAll(() => bench?.stop());

describe("Codex CLI 0.169.0: nothing lost when codex exec exits", () => {
  test(`every one of ${SESSIONS} short sessions stored its last message and was closed by SessionEnd`, () => {
    runs.forEach((run, index) => {
      ran(run, "Stop", "hooks:emit");
      ran(run, "SessionEnd", "--event=SessionEnd");
      const rows = bench.events("harness_session_id = ?", run.threadId);
      expect(rows.filter((row) => row.event_type === "agent_message").map((row) => row.message)).toEqual([`Answer ${index + 1}: nothing to change.`]);
      expect(rows.at(-1)?.event_type).toBe("session_ended");
    });
  });

  test("a user's async Stop probe (sleep 0.3 s) finished in none of the sessions: Codex cuts async hooks at exit", () => {
    const lines = existsSync(probeLog) ? readFileSync(probeLog, "utf8").split("\n").filter(Boolean) : [];
    expect(lines.filter((line) => line === "end")).toEqual([]);
  });

  test(`${PARALLEL} parallel tool calls: every PostToolUse landed and live:status counts and lists them`, async () => {
    const rows = bench.events("harness_session_id = ? AND event_type = 'step_done'", parallel.threadId);
    expect(rows.map((row) => row.payload.command).sort()).toEqual(Array.from({ length: PARALLEL }, (_, i) => `echo package ${i}`));
    expect(rows.every((row) => row.payload.outcome === "passed" && row.payload.exit_code === 0)).toBe(true);
    const live = JSON.parse((await bench.aioson(["live:status", ".", "--agent=dev", "--json", "--limit=20"])).stdout) as { stats: { events_total: number }; recentEvents: Array<{ summary: string }> };
    const stored = bench.events("harness_session_id = ? AND run_key IS NOT NULL", parallel.threadId);
    expect(live.stats.events_total).toBe(stored.length);
    expect(live.recentEvents.map((event) => event.summary)).toEqual(stored.slice(-20).map((row) => row.message));
  });
});
