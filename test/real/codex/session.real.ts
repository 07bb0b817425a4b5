/**
 * Codex CLI 0.169.0, one `codex exec` working session: agent activation, a plan (update_plan), two apply_patch calls,
 * a failing then passing test, a failing command that is no test runner (exit 2), an automatic compaction with the
 * checkpoint in the next request, the last message at Stop, SessionEnd closing the hooks session.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { CodexRun } from "../lib/drivers/codex.ts";
import type { LoggedRequest } from "../lib/server.ts";
import { developerTexts } from "../lib/wire/responses.ts";
import { CodexBench, ran } from "./bench.ts";

const CHECKPOINT = "[AIOSON checkpoint]";
const FAILING_TEST = 'import test from "node:test";\nimport assert from "node:assert";\nimport { cartTotal } from "../src/cart.mjs";\n\ntest("total", () => assert.equal(cartTotal([{ cents: 150 }, { cents: 250 }]), 400));\n';
const LINT = 'echo "src/cart.mjs: 1 problem (no-magic-numbers)"\nexit 2\n';
const ADD_CART = "*** Begin Patch\n*** Add File: src/cart.mjs\n+export function cartTotal(items) {\n+  return items.reduce((sum, item) => sum + item.cents, 0) + 1;\n+}\n*** End Patch\n";
const FIX_CART = "*** Begin Patch\n*** Update File: src/cart.mjs\n@@\n-  return items.reduce((sum, item) => sum + item.cents, 0) + 1;\n+  return items.reduce((sum, item) => sum + item.cents, 0);\n*** End Patch\n";
const FINAL = "Added cartTotal in src/cart.mjs; the tests pass, lint still reports one problem.";

let bench: CodexBench;
let run: CodexRun;
let afterCompaction: LoggedRequest | undefined;

beforeAll(async () => {
  bench = await CodexBench.create({ git: true, files: { "test/cart.test.mjs": FAILING_TEST, "lint.sh": LINT } });
  run = await bench.run({
    prompt: "Please work as /aioson:agent:dev and add cart totals.",
    script: {
      turns: [
        { tools: [{ name: "update_plan", input: { explanation: "Cart totals", plan: [{ step: "Add cart totals", status: "in_progress" }, { step: "Run the tests", status: "pending" }] } }] },
        { tools: [{ name: "apply_patch", input: { input: ADD_CART } }] },
        { tools: [{ id: "call_test_red", name: "exec_command", input: { cmd: "node --test test/cart.test.mjs" } }] },
        { tools: [{ name: "apply_patch", input: { input: FIX_CART } }] },
        { tools: [{ id: "call_test_green", name: "exec_command", input: { cmd: "node --test test/cart.test.mjs" } }] },
        { tools: [{ name: "update_plan", input: { plan: [{ step: "Add cart totals", status: "completed" }, { step: "Run the tests", status: "completed" }] } }] },
        // The lint run's response reports a context near the limit: Codex compacts before its next request.
        { tools: [{ id: "call_lint", name: "exec_command", input: { cmd: "sh lint.sh" } }], inputTokens: 150_000 },
        (request) => {
          afterCompaction = request;
          return { text: FINAL };
        },
      ],
      compactions: [{ text: "Summary: cart totals added, tests pass, lint reports one problem." }],
    },
  });
});

afterAll(() => bench?.stop());

describe("Codex CLI 0.169.0: a codex exec working session", () => {
  test("Codex ran every installed hook synchronously, each exiting 0", () => {
    ran(run, "UserPromptSubmit", "hooks:emit");
    ran(run, "PostToolUse", "hooks:emit");
    ran(run, "PreCompact", "hooks:emit");
    ran(run, "SessionStart", "hooks:recap");
    ran(run, "Stop", "hooks:emit");
    ran(run, "SessionEnd", "--event=SessionEnd");
    const handlers = Object.values(JSON.parse(bench.readHooks()).hooks as Record<string, Array<{ hooks: Array<Record<string, unknown>> }>>).flatMap((groups) => groups.flatMap((group) => group.hooks));
    expect(handlers.filter((handler) => handler.async === true)).toEqual([]);
    expect(bench.server.unscripted).toBe(0);
  });

  test("what aioson stored: activation, both patches, the plan, the test red then green, the failing lint with its exit code", () => {
    const rows = bench.events("harness_session_id = ? AND run_key IS NOT NULL", run.threadId);
    const kinds = rows.map((row) => `${row.event_type}: ${row.message}`);
    expect(kinds).toContain("agent_activated: Agent activated: @dev");
    expect(rows.filter((row) => row.event_type === "artifact").map((row) => [row.payload.file, row.payload.op])).toEqual([["src/cart.mjs", "add"], ["src/cart.mjs", "update"]]);
    const steps = rows.filter((row) => row.event_type === "step_done").map((row) => [row.payload.command, row.payload.outcome, row.payload.exit_code, row.payload.test_runner]);
    expect(steps).toEqual([
      ["node --test test/cart.test.mjs", "failed", 1, true],
      ["node --test test/cart.test.mjs", "passed", 0, true],
      ["sh lint.sh", "failed", 2, false],
    ]);
    const plans = rows.filter((row) => row.tool_name === "update_plan");
    expect(plans.length).toBe(2);
    expect(plans.at(-1)?.payload.summary).toBe("Tasks: 2 of 2 done");
  });

  test("the automatic compaction: the marker, then the checkpoint in the next request with what is still failing", () => {
    const markers = bench.events("harness_session_id = ? AND event_type = 'compaction'", run.threadId);
    expect(markers.map((row) => row.payload.trigger)).toEqual(["auto"]);
    const checkpoint = developerTexts(afterCompaction?.body).find((text) => text.includes(CHECKPOINT));
    expect(checkpoint).toBeDefined();
    expect(checkpoint).toContain("Still failing:\n- $ sh lint.sh (exit 2)");
    expect(checkpoint).toContain("Last test result: passed — $ node --test test/cart.test.mjs");
    expect(checkpoint).toContain("Plan: Tasks: 2 of 2 done\n- [x] Add cart totals\n- [x] Run the tests");
  });

  test("Stop stored the last message; SessionEnd closed the hooks session", async () => {
    const rows = bench.events("harness_session_id = ?", run.threadId);
    expect(rows.filter((row) => row.event_type === "agent_message").at(-1)?.message).toBe(FINAL);
    expect(rows.at(-1)?.event_type).toBe("session_ended");
    const live = JSON.parse((await bench.aioson(["live:status", ".", "--agent=dev", "--json"])).stdout) as { phase: string; open: boolean; stats: { events_total: number } };
    expect({ phase: live.phase, open: live.open }).toEqual({ phase: "closed", open: false });
    expect(live.stats.events_total).toBe(bench.events("run_key IS NOT NULL").length);
    expect(readFileSync(join(bench.project, "src", "cart.mjs"), "utf8")).not.toContain("+ 1");
  });
});
