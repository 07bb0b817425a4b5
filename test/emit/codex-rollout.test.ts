/**
 * Issue 13 item 2: Codex 0.169 sends PostToolUse(Bash) with the output text only; the exit code is in the rollout at
 * `transcript_path` (an `item_completed` CommandExecution line with the call's id, written before the hook runs).
 * The lines below have the shape the real Codex 0.169 wrote (test/real/codex runs the real one).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTemp, runAioson, tempDir, tempProject } from "../helpers.ts";
import { emit, events, payloadOf } from "./helpers.ts";

afterAll(cleanupTemp);

const TURN = "01a231df-fe07-7062-8698-5fced20a5df9";
const line = (type: string, payload: Record<string, unknown>) => JSON.stringify({ timestamp: "2026-12-01T13:51:33.047Z", ordinal: 1, type, payload });
const functionCall = (callId: string, cmd: string) => line("response_item", { type: "function_call", status: "completed", id: `fc_${callId}`, name: "exec_command", arguments: JSON.stringify({ cmd }), call_id: callId });
const completed = (callId: string, cmd: string, exitCode: number | null, output = "lint failed\n") =>
  line("event_msg", {
    type: "item_completed",
    thread_id: "T",
    turn_id: TURN,
    item: { type: "CommandExecution", id: callId, process_id: "1", command: ["/bin/bash", "-lc", cmd], cwd: "file:///p", source: "unified_exec_startup", status: exitCode === 0 ? "completed" : "failed", aggregated_output: output, exit_code: exitCode, duration: { secs: 0, nanos: 1 } },
  });
const callOutput = (callId: string, code: number) => line("response_item", { type: "function_call_output", id: `fco_${callId}`, call_id: callId, output: `Chunk ID: 1\nWall time: 0.0 seconds\nProcess exited with code ${code}\nOutput:\nx\n` });
const META = line("session_meta", { session_id: "S", cwd: "/p", cli_version: "0.169.0", base_instructions: { text: "You are Codex." } });

function rollout(lines: string[]): string {
  const dir = tempDir("aioson-codex-home-");
  const path = join(dir, "rollout-2026-12-01T13-51-32-S.jsonl");
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

const bash = (command: string, output: string, extra: Record<string, unknown>) => ({
  session_id: "S", turn_id: TURN, cwd: "/p", hook_event_name: "PostToolUse", model: "gpt-5.5", permission_mode: "bypassPermissions",
  tool_name: "Bash", tool_input: { command }, tool_response: output, ...extra,
});

function step(project: string, payload: unknown): Record<string, unknown> {
  const run = emit(project, payload, ["--source=codex"]);
  expect(run.code).toBe(0);
  return payloadOf(events(project).filter((row) => row.event_type === "step_done").at(-1));
}

describe("Codex Bash outcome from the rollout", () => {
  test("a failing command that is no test runner: failed with the rollout's exit code; passing: passed", () => {
    const project = tempProject();
    const cmd = "npm run lint";
    const path = rollout([META, functionCall("call_1", cmd), completed("call_1", cmd, 2), functionCall("call_2", "true"), completed("call_2", "true", 0, "")]);
    expect(step(project, bash(cmd, "lint failed\n", { transcript_path: path, tool_use_id: "call_1" }))).toMatchObject({ outcome: "failed", exit_code: 2, test_runner: false });
    expect(step(project, bash("true", "", { transcript_path: path, tool_use_id: "call_2" }))).toMatchObject({ outcome: "passed", exit_code: 0 });
  });

  test("matched to this call: another call's code never decides; without an id, the newest item with this command", () => {
    const project = tempProject();
    const path = rollout([META, completed("call_a", "make", 0, ""), completed("call_b", "make", 3, "boom\n"), completed("call_c", "ls", 0, "")]);
    expect(step(project, bash("make", "boom\n", { transcript_path: path, tool_use_id: "call_a" }))).toMatchObject({ outcome: "passed", exit_code: 0 });
    expect(step(project, bash("make", "boom\n", { transcript_path: path }))).toMatchObject({ outcome: "failed", exit_code: 3 });
    expect(step(project, bash("make", "boom\n", { transcript_path: path, tool_use_id: "call_zzz" }))).toMatchObject({ outcome: "unknown", exit_code: null });
  });

  test("the call's function_call_output counts when a version writes it before the hook; an exit line in the payload still wins", () => {
    const project = tempProject();
    const path = rollout([META, functionCall("call_9", "cargo build"), callOutput("call_9", 101), completed("call_8", "cargo build", 0, "")]);
    expect(step(project, bash("cargo build", "error[E0425]\n", { transcript_path: path, tool_use_id: "call_9" }))).toMatchObject({ outcome: "failed", exit_code: 101 });
    expect(step(project, bash("cargo build", "x\nProcess exited with code 0\n", { transcript_path: path, tool_use_id: "call_9" }))).toMatchObject({ outcome: "passed", exit_code: 0 });
  });

  test("spec 4.5-4.7 apply to the code found: a test runner keeps its summary, its exit code decides", () => {
    const project = tempProject();
    const path = rollout([META, completed("call_t", "npm test", 1, "Tests: 1 failed, 9 passed\n")]);
    expect(step(project, bash("npm test", "Tests: 1 failed, 9 passed\n", { transcript_path: path, tool_use_id: "call_t" }))).toMatchObject({ outcome: "failed", exit_code: 1, test_runner: true, summary: "Tests: 1 failed, 9 passed" });
  });

  test("the checkpoint's Still failing names the failing non-test command", () => {
    const project = tempProject();
    const path = rollout([META, completed("call_l", "npm run lint", 2)]);
    step(project, bash("npm run lint", "lint failed\n", { transcript_path: path, tool_use_id: "call_l" }));
    const recap = runAioson(["hooks:recap", project, "--source=codex", "--when=always", "--session=S"]);
    expect(recap.stdout).toContain("Still failing:\n- $ npm run lint (exit 2)");
  });

  test("a big rollout: the tail holds the call; a long item; a line cut by the 1 MiB window, a folder or a FIFO answer unknown without waiting", () => {
    const project = tempProject();
    const filler = line("response_item", { type: "message", role: "assistant", content: [{ type: "output_text", text: "y".repeat(4096) }] });
    const big = rollout([META, ...Array.from({ length: 600 }, () => filler), completed("call_big", "make", 4, "")]);
    expect(step(project, bash("make", "", { transcript_path: big, tool_use_id: "call_big" }))).toMatchObject({ outcome: "failed", exit_code: 4 });
    // An item longer than the first 64 KiB look: the wider window finds it whole.
    const long = rollout([META, ...Array.from({ length: 100 }, () => filler), completed("call_long", "make", 6, "m".repeat(200 * 1024))]);
    expect(step(project, bash("make", "", { transcript_path: long, tool_use_id: "call_long" }))).toMatchObject({ outcome: "failed", exit_code: 6 });
    const cut = rollout([META, completed("call_cut", "make", 5, "z".repeat(2 * 1024 * 1024))]);
    expect(step(project, bash("make", "", { transcript_path: cut, tool_use_id: "call_cut" }))).toMatchObject({ outcome: "unknown", exit_code: null });
    const folder = tempDir("aioson-rollout-dir-");
    mkdirSync(join(folder, "inner"));
    expect(step(project, bash("make", "", { transcript_path: folder, tool_use_id: "call_big" }))).toMatchObject({ outcome: "unknown" });
    const fifo = join(tempDir("aioson-rollout-fifo-"), "rollout.jsonl");
    expect(Bun.spawnSync(["mkfifo", fifo]).exitCode).toBe(0);
    expect(step(project, bash("make", "", { transcript_path: fifo, tool_use_id: "call_big" }))).toMatchObject({ outcome: "unknown" });
  });

  test("the rollout is a Codex quirk: a Claude payload naming one is not read for an exit code", () => {
    const project = tempProject();
    const path = rollout([META, completed("call_x", "make", 7)]);
    const run = emit(project, bash("make", "out", { transcript_path: path, tool_use_id: "call_x" }), ["--source=claude"]);
    expect(run.code).toBe(0);
    expect(payloadOf(events(project).filter((row) => row.event_type === "step_done").at(-1))).toMatchObject({ exit_code: null });
  });
});
