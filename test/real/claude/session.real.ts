/**
 * Claude Code 2.1.328, one working session: agent activation, a task plan (TaskCreate/TaskUpdate, two updates in
 * one turn), Write and Edit under a project rule, a failing then passing test, a denied and an allowed commit,
 * the answer checked by verify-claims, SessionEnd. Then hooks:doctor on this install.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ClaudeRun } from "../lib/drivers/claude.ts";
import { lastToolResults } from "../lib/wire/anthropic.ts";
import { ClaudeBench, ran, sent, toolResultFor } from "./bench.ts";

const RULE = "---\ndescription: Money in the cart\nentities: [cart, totals]\npaths: [\"src/**\"]\n---\n## Rules\n- Keep cart totals in integer cents.\n- Never use floating point for money.\n";
const FAILING_TEST = 'import test from "node:test";\nimport assert from "node:assert";\nimport { cartTotal } from "../src/cart.mjs";\n\ntest("total", () => assert.equal(cartTotal([{ cents: 150 }, { cents: 250 }]), 400));\n';
const CART_V1 = "export function cartTotal(items) {\n  return items.reduce((sum, item) => sum + item.cents, 0) + 1;\n}\n";

let bench: ClaudeBench;
let run: ClaudeRun;

beforeAll(async () => {
  bench = await ClaudeBench.create({
    git: true,
    guards: ["pre-commit-guard", "verify-claims"],
    files: { ".gitignore": ".aioson/runtime/\n", ".aioson/rules/cart-money.md": RULE, "test/cart.test.mjs": FAILING_TEST },
  });
  const P = bench.project;
  run = await bench.run({
    prompt: "Please work as /aioson:agent:dev and add cart totals.",
    script: {
      turns: [
        { text: "Planning.", tools: [{ name: "ToolSearch", input: { query: "select:TaskCreate,TaskUpdate" } }] },
        { tools: [{ name: "TaskCreate", input: { subject: "Add cart totals", description: "cartTotal in src/cart.mjs", activeForm: "Adding cart totals" } }] },
        { tools: [{ name: "TaskCreate", input: { subject: "Run the tests", description: "node --test", activeForm: "Running the tests" } }] },
        { tools: [{ name: "TaskUpdate", input: { taskId: "1", status: "in_progress" } }] },
        { tools: [{ id: "toolu_write_cart", name: "Write", input: { file_path: `${P}/src/cart.mjs`, content: CART_V1 } }] },
        { tools: [{ name: "Bash", input: { command: "node --test test/cart.test.mjs", description: "Run the cart tests" } }] },
        { tools: [{ name: "Edit", input: { file_path: `${P}/src/cart.mjs`, old_string: " + 1;", new_string: ";" } }] },
        { tools: [{ name: "Bash", input: { command: "node --test test/cart.test.mjs", description: "Run the cart tests" } }] },
        {
          tools: [
            { name: "TaskUpdate", input: { taskId: "1", status: "completed" } },
            { name: "TaskUpdate", input: { taskId: "2", status: "completed" } },
          ],
        },
        { tools: [{ id: "toolu_commit_bad", name: "Bash", input: { command: 'git add -A && git commit -q -m "added stuff"', description: "Commit" } }] },
        { tools: [{ id: "toolu_commit_good", name: "Bash", input: { command: 'git add -A && git commit -q -m "feat: add cart totals"', description: "Commit" } }] },
        { text: "Added cartTotal in src/cart.mjs; node --test test/cart.test.mjs passes and the change is committed." },
      ],
    },
  });
});

afterAll(() => bench?.stop());

describe("Claude Code 2.1.328: a working session", () => {
  test("the harness ran every installed hook, each exiting 0 (its own debug log)", () => {
    ran(run, "UserPromptSubmit", "hooks:emit");
    ran(run, "PreToolUse", "context:guard", "Write");
    ran(run, "PreToolUse", "context:guard", "Edit");
    ran(run, "PostToolUse", "hooks:emit", "Write");
    ran(run, "PostToolUse", "hooks:emit", "Edit");
    ran(run, "PostToolUse", "hooks:emit", "TaskCreate");
    ran(run, "PostToolUse", "hooks:emit", "TaskUpdate");
    ran(run, "PreToolUse", "guard:pre-commit-guard", "Bash");
    ran(run, "PostToolUseFailure", "hooks:emit", "Bash");
    ran(run, "PostToolUse", "hooks:emit", "Bash");
    ran(run, "Stop", "--then=agent:done");
    ran(run, "Stop", "guard:verify-claims");
    ran(run, "SessionEnd", "--event=SessionEnd");
    expect(bench.server.unscripted).toBe(0);
  });

  test("what aioson stored: activation, artifacts, the failing then passing test, the plan, the denial, one turn end, the close", () => {
    const S = run.sessionId;
    const rows = bench.events("harness_session_id = ? AND run_key IS NOT NULL", S);
    const kinds = rows.map((row) => `${row.event_type}: ${row.message}`);
    expect(kinds).toContain("agent_activated: Agent activated: @dev");
    expect(kinds).toContain("artifact: Write: src/cart.mjs");
    expect(kinds).toContain("artifact: Edit: src/cart.mjs");
    const steps = rows.filter((row) => row.event_type === "step_done" && row.payload.command === "node --test test/cart.test.mjs");
    expect(steps.map((row) => [row.payload.outcome, row.payload.test_runner])).toEqual([["failed", true], ["passed", true]]);
    const plans = rows.filter((row) => row.event_type === "note" && row.message === "Task list updated");
    expect(plans.at(-1)?.payload).toMatchObject({
      todos: [{ id: "1", content: "Add cart totals", status: "completed" }, { id: "2", content: "Run the tests", status: "completed" }],
      summary: "Tasks: 2 of 2 done",
    });
    expect(rows.filter((row) => row.event_type === "agent_done").length).toBe(1);
    expect(rows.at(-1)?.event_type).toBe("session_ended");
    const decisions = bench.events("event_type = 'guard_decision'");
    expect(decisions.map((row) => [row.payload.guard, row.payload.decision, row.payload.tool, row.harness_session_id])).toEqual([["pre-commit-guard", "deny", "Bash", S]]);
    const injected = bench.events("event_type = 'guard_injected'");
    expect(injected.map((row) => row.payload.file)).toEqual(["src/cart.mjs", "src/cart.mjs"]);
    const lines = bench.ndjson();
    expect(lines.filter((line) => line.type === "artifact").map((line) => line.file)).toEqual(["src/cart.mjs", "src/cart.mjs"]);
    expect(lines.every((line) => line.harness_session_id === undefined || line.harness_session_id === S)).toBe(true);
  });

  test("what the model was sent: the rule text, the denial; the file and the commits are what they should be", () => {
    expect(sent(bench.server, "Keep cart totals in integer cents.").length).toBeGreaterThan(0);
    const denial = toolResultFor(bench.server, "toolu_commit_bad");
    expect(denial?.isError).toBe(true);
    expect(denial?.text).toContain("Conventional Commits");
    expect(toolResultFor(bench.server, "toolu_commit_good")?.isError).toBe(false);
    const log = Bun.spawnSync(["git", "log", "--format=%s"], { cwd: bench.project }).stdout.toString().trim().split("\n");
    expect(log).toEqual(["feat: add cart totals", "chore: start"]);
    expect(readFileSync(join(bench.project, "src", "cart.mjs"), "utf8")).not.toContain("+ 1");
    // verify-claims let the honest answer through: no request after the final answer carries a block.
    expect(sent(bench.server, "UNVERIFIED FILE REFERENCES")).toEqual([]);
    const last = bench.server.modelRequests().at(-1);
    expect(lastToolResults(last?.body).map((result) => result.id)).toEqual(["toolu_commit_good"]);
  });

  test("the status commands show it; the checkpoint has the plan; SessionEnd closed the hooks session", async () => {
    const live = await bench.aioson(["live:status", ".", "--agent=dev", "--json"]);
    const snapshot = JSON.parse(live.stdout) as { phase: string; open: boolean; guardEvents: Array<{ guard: string; decision: string }> };
    expect(snapshot.phase).toBe("closed");
    expect(snapshot.open).toBe(false);
    const decided = snapshot.guardEvents.map((event) => `${event.guard} ${event.decision}`);
    expect(decided).toContain("pre-commit-guard deny");
    expect(decided).toContain("context:guard inject");
    const status = await bench.aioson(["runtime:status", ".", "--json"]);
    expect((JSON.parse(status.stdout) as { recentGuardEvents: Array<{ guard: string }> }).recentGuardEvents.some((event) => event.guard === "pre-commit-guard")).toBe(true);
    const recap = await bench.aioson(["hooks:recap", ".", "--when=always", `--session=${run.sessionId}`]);
    expect(recap.stdout).toContain("Agent: @dev");
    expect(recap.stdout).toContain("Plan: Tasks: 2 of 2 done\n- [x] Add cart totals\n- [x] Run the tests");
    expect(recap.stdout).toContain("Last test result: passed — $ node --test test/cart.test.mjs");
  });

  test("hooks:doctor on this install says all is well", async () => {
    const doctor = await bench.aioson(["hooks:doctor", "--json"]);
    const report = JSON.parse(doctor.stdout) as { ok: boolean; issues?: unknown[] };
    expect({ code: doctor.code, issues: report.issues ?? [] }).toEqual({ code: 0, issues: [] });
  });
});
