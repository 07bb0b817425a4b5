/**
 * Issue 11 item 6, labels: `session_id`, `--source`, tool names, triggers, reasons and every label column are capped
 * before storage with the visible cut mark (docs/security.md: 128 characters for a harness session id, 64 for a
 * harness name, 200 for other labels). A 10 MB session_id used to be stored whole in every row.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTemp, rows, runAioson } from "../helpers.ts";
import { hostileProject, NAMING_RULE, namingWrite, runtimeOf, WRITE_PAYLOAD } from "./paths-helpers.ts";

afterAll(cleanupTemp);

const CUT = "…[truncated]";

function storeBytes(project: string): number {
  const runtime = runtimeOf(project);
  return ["aios.sqlite", "aios.sqlite-wal"].reduce((sum, name) => {
    try {
      return sum + statSync(join(runtime, name)).size;
    } catch {
      return sum;
    }
  }, 0);
}

describe("hooks:emit", () => {
  test("a 10 MB session_id is stored capped, the same in the column, the payload and the ndjson line", () => {
    const h = hostileProject();
    const huge = `S${"x".repeat(10 * 1024 * 1024)}`;
    for (let i = 0; i < 3; i++) runAioson(["hooks:emit", h.project], { stdin: JSON.stringify({ ...WRITE_PAYLOAD, session_id: huge }), home: h.home });
    const events = rows<{ harness_session_id: string; payload_json: string; session_key: string }>(h.project, "SELECT harness_session_id, payload_json, session_key FROM execution_events");
    expect(events).toHaveLength(4);
    const expected = `${huge.slice(0, 128 - CUT.length)}${CUT}`;
    for (const event of events) {
      expect(event.harness_session_id).toBe(expected);
      expect(JSON.parse(event.payload_json).harness_session_id).toBe(expected);
    }
    expect(storeBytes(h.project)).toBeLessThan(2 * 1024 * 1024);
    const line = runAioson(["live:status", h.project, "--json"], { home: h.home });
    expect(line.stdout.length).toBeLessThan(64 * 1024);
  });

  test("hooks:recap finds the session by the same capped id", () => {
    const h = hostileProject();
    const huge = `S${"y".repeat(300_000)}`;
    runAioson(["hooks:emit", h.project], { stdin: JSON.stringify({ ...WRITE_PAYLOAD, session_id: huge, tool_input: { file_path: "src/recapped.ts" } }), home: h.home });
    const recap = runAioson(["hooks:recap", h.project, "--when=always"], { stdin: JSON.stringify({ hook_event_name: "SessionStart", source: "compact", session_id: huge }), home: h.home });
    expect(recap.code).toBe(0);
    expect(recap.stdout).toContain("src/recapped.ts");
  });

  test("--source, a tool name, a trigger and a reason are capped", () => {
    const h = hostileProject();
    const long = "z".repeat(100_000);
    runAioson(["hooks:emit", h.project, `--source=${long}`], { stdin: JSON.stringify({ hook_event_name: "PostToolUse", tool_name: `Tool${long}`, session_id: "S" }), home: h.home });
    runAioson(["hooks:emit", h.project], { stdin: JSON.stringify({ hook_event_name: "PreCompact", trigger: long, session_id: "S" }), home: h.home });
    runAioson(["hooks:emit", h.project, "--event=SessionEnd"], { stdin: JSON.stringify({ reason: long, session_id: "S" }), home: h.home });
    const stored = rows<Record<string, string | null>>(h.project, "SELECT source, tool_name, message, payload_json FROM execution_events");
    for (const row of stored) {
      expect((row.source ?? "").length).toBeLessThanOrEqual(64);
      expect((row.tool_name ?? "").length).toBeLessThanOrEqual(200);
      expect((row.message ?? "").length).toBeLessThanOrEqual(1_100);
      expect((row.payload_json ?? "").length).toBeLessThan(2_000);
    }
    expect(stored.some((row) => row.tool_name?.endsWith(CUT))).toBe(true);
    const runs = rows<{ source: string; title: string }>(h.project, "SELECT source, title FROM agent_runs");
    for (const run of runs) expect(run.source.length).toBeLessThanOrEqual(64);
  });

  test("an over-long --agent falls back to dev (spec 4.1's agent id, at most 64 characters)", () => {
    const h = hostileProject();
    runAioson(["hooks:emit", h.project, `--agent=${"a".repeat(65)}`], { stdin: JSON.stringify(WRITE_PAYLOAD), home: h.home });
    expect(rows(h.project, "SELECT DISTINCT agent_name FROM agent_runs")).toEqual([{ agent_name: "@dev" }]);
  });

  test("cwd and transcript_path longer than any path are dropped, not stored or opened", () => {
    const h = hostileProject();
    const run = runAioson(["hooks:emit", h.project, "--json"], {
      stdin: JSON.stringify({ ...WRITE_PAYLOAD, cwd: `/${"d/".repeat(5_000)}`, transcript_path: `/${"t".repeat(10_000)}` }),
      home: h.home,
    });
    expect(run.json).toMatchObject({ ok: true, message: "Write: src/a.ts" });
  });
});

describe("the store boundary", () => {
  test("runtime:emit labels (type, plan step, worker status, verdict) are capped", () => {
    const h = hostileProject();
    const long = "L".repeat(50_000);
    runAioson(["runtime:emit", h.project, "--agent=dev", `--type=${long}`, `--plan-step=${long}`, `--worker-status=${long}`, `--verdict=${long}`, `--title=${long}`], { home: h.home });
    const [event] = rows<Record<string, string>>(h.project, "SELECT event_type, plan_step_id, worker_status, verdict FROM execution_events");
    for (const value of Object.values(event ?? {})) {
      expect(value.length).toBeLessThanOrEqual(200);
      expect(value.endsWith(CUT) || value.endsWith(CUT.toUpperCase())).toBe(true);
    }
    const [task] = rows<{ title: string }>(h.project, "SELECT title FROM tasks");
    expect(task?.title.length).toBe(500);
  });

  test("context:guard's guard_injected row carries the capped harness session id", () => {
    const h = hostileProject();
    runAioson(["runtime:init", h.project], { home: h.home });
    Bun.spawnSync(["mkdir", "-p", join(h.project, ".aioson", "rules")]);
    writeFileSync(join(h.project, ".aioson", "rules", "naming.md"), NAMING_RULE);
    const huge = `G${"g".repeat(200_000)}`;
    const run = runAioson(["context:guard", h.project, "--json"], { stdin: JSON.stringify(namingWrite(h.project, huge)), home: h.home });
    expect(run.stdout).toContain("Write identifiers in English");
    const recorded = rows<{ harness_session_id: string | null }>(h.project, "SELECT harness_session_id FROM execution_events WHERE event_type = 'guard_injected'");
    expect(recorded).toEqual([{ harness_session_id: `${huge.slice(0, 128 - CUT.length)}${CUT}` }]);
  });
});
