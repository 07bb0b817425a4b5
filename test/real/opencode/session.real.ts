/**
 * OpenCode 1.18.33, one working session through `opencode run "/dev …"` (a prompt it wraps in double quotes):
 * activation, Write and Edit, a failing then passing test, a todowrite plan, a commit pre-commit-guard denies (the
 * denial is the tool's result the model reads) and one it allows, a preamble before tool calls, the final answer.
 * pre-commit-guard is spawned for the git commands only.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { OpencodeRun } from "../lib/drivers/opencode.ts";
import { OpencodeBench, toolResultFor, type Call } from "./bench.ts";

const FAILING_TEST = 'import test from "node:test";\nimport assert from "node:assert";\nimport { cartTotal } from "../src/cart.mjs";\n\ntest("total", () => assert.equal(cartTotal([{ cents: 150 }, { cents: 250 }]), 400));\n';
const CART_V1 = "export function cartTotal(items) {\n  return items.reduce((sum, item) => sum + item.cents, 0) + 1;\n}\n";
const ANSWER = "Added cartTotal in src/cart.mjs; node --test test/cart.test.mjs passes and the change is committed.";
/** Bash calls that cannot run git: the plugin must not spawn the guard for them. */
const PLAIN = ["ls src", "cat src/cart.mjs", "node --version", "echo $HOME", "wc -l test/cart.test.mjs"];

let bench: OpencodeBench;
let run: OpencodeRun;
let calls: Call[];

beforeAll(async () => {
  bench = await OpencodeBench.create({ git: true, guards: ["pre-commit-guard"], files: { ".gitignore": ".aioson/runtime/\n", "test/cart.test.mjs": FAILING_TEST } });
  const counting = bench.countingAioson("aioson");
  run = await bench.run({
    message: ["/dev add cart totals"],
    env: counting.env,
    script: {
      turns: [
        { text: "I will write src/cart.mjs first.", tools: [{ name: "write", input: { filePath: join(bench.project, "src", "cart.mjs"), content: CART_V1 } }] },
        { tools: [{ id: "call_test_1", name: "bash", input: { command: "node --test test/cart.test.mjs", description: "Run the cart tests" } }] },
        { tools: [{ name: "edit", input: { filePath: join(bench.project, "src", "cart.mjs"), oldString: " + 1;", newString: ";" } }] },
        { tools: [{ id: "call_test_2", name: "bash", input: { command: "node --test test/cart.test.mjs", description: "Run the cart tests" } }] },
        { tools: [{ name: "todowrite", input: { todos: [{ content: "Add cart totals", status: "completed", priority: "high" }, { content: "Commit", status: "in_progress", priority: "medium" }] } }] },
        { tools: PLAIN.map((command, index) => ({ id: `call_plain_${index}`, name: "bash", input: { command, description: "Look around" } })) },
        { tools: [{ id: "call_commit_bad", name: "bash", input: { command: 'git add -A && git commit -q -m "added stuff"', description: "Commit" } }] },
        { tools: [{ id: "call_commit_good", name: "bash", input: { command: 'git add -A && git commit -q -m "feat: add cart totals"', description: "Commit" } }] },
        { text: ANSWER },
      ],
    },
  });
  calls = counting.calls();
});

afterAll(() => bench?.stop());

describe("OpenCode 1.18.33: a working session", () => {
  test("what aioson stored: activation, artifacts, the failing then passing test, the plan, the final answer only", () => {
    const S = run.sessionId;
    expect(S).toMatch(/^ses_/);
    const rows = bench.events("harness_session_id = ? AND run_key IS NOT NULL", S);
    const kinds = rows.map((row) => `${row.event_type}: ${row.message}`);
    expect(kinds).toContain("agent_activated: Agent activated: @dev");
    expect(kinds).toContain("artifact: Write: src/cart.mjs");
    expect(kinds).toContain("artifact: Edit: src/cart.mjs");
    const tests = rows.filter((row) => row.event_type === "step_done" && row.payload.command === "node --test test/cart.test.mjs");
    expect(tests.map((row) => [row.payload.outcome, row.payload.test_runner])).toEqual([["failed", true], ["passed", true]]);
    const plan = rows.find((row) => row.event_type === "note" && row.message === "Task list updated");
    expect(plan?.payload).toMatchObject({ todos: [{ content: "Add cart totals", status: "completed" }, { content: "Commit", status: "in_progress" }], summary: "Tasks: 1 of 2 done" });
    // The denied commit never ran, so it has no step; the allowed one has.
    const commits = rows.filter((row) => row.event_type === "step_done" && String(row.payload.command).includes("git commit"));
    expect(commits.map((row) => row.payload.command)).toEqual(['git add -A && git commit -q -m "feat: add cart totals"']);
    // One answer per turn, the final one: never the preamble written before the first tool call.
    expect(rows.filter((row) => row.event_type === "agent_message").map((row) => row.payload.text)).toEqual([ANSWER]);
  });

  test("the denial reached the model as the tool's result; the allowed commit is the only new commit", () => {
    expect(toolResultFor(bench.server, "call_commit_bad")?.text).toContain("AIOSON pre-commit-guard: ");
    expect(toolResultFor(bench.server, "call_commit_bad")?.text).toContain("Conventional Commits");
    expect(toolResultFor(bench.server, "call_commit_good")?.text ?? "").not.toContain("AIOSON pre-commit-guard");
    const decisions = bench.events("event_type = 'guard_decision'");
    expect(decisions.map((row) => [row.payload.guard, row.payload.decision, row.payload.harness, row.harness_session_id])).toEqual([["pre-commit-guard", "deny", "opencode", run.sessionId]]);
    expect(toolResultFor(bench.server, "call_test_1")?.text).toContain("fail");
    const log = Bun.spawnSync(["git", "log", "--format=%s"], { cwd: bench.project }).stdout.toString().trim().split("\n");
    expect(log).toEqual(["feat: add cart totals", "chore: start"]);
    expect(readFileSync(join(bench.project, "src", "cart.mjs"), "utf8")).not.toContain("+ 1");
  });

  test("pre-commit-guard was spawned for the two git commands only, not for the other seven bash calls", () => {
    const guards = calls.filter((call) => call.command === "guard:pre-commit-guard");
    expect(guards.length).toBe(2);
    const bash = run.events.filter((event) => event.type === "tool_use" && (event.part as { tool?: string }).tool === "bash").length;
    expect(bash).toBe(4 + PLAIN.length);
    // The saving, measured: what each guard call cost here, times the bash calls that no longer pay it.
    const each = guards.map((call) => (call.endedMs ?? call.startedMs) - call.startedMs);
    const mean = each.reduce((sum, ms) => sum + ms, 0) / each.length;
    console.log(`[bench] pre-commit-guard: ${guards.length} spawns for ${bash} bash calls; one spawn took ${each.join(", ")} ms here, so the ${bash - guards.length} skipped ones saved about ${Math.round(mean * (bash - guards.length))} ms`);
  });
});
