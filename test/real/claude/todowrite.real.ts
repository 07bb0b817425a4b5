/**
 * Claude Code 2.1.328 with `CLAUDE_CODE_ENABLE_TASKS=0`: the TodoWrite tool is offered again and keeps working —
 * the note, the summary, and the plan in the checkpoint the model gets after a compaction.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { ClaudeRun } from "../lib/drivers/claude.ts";
import type { LoggedRequest } from "../lib/server.ts";
import { offeredTools } from "../lib/wire/anthropic.ts";
import { capture, ClaudeBench, ran, toolResultFor } from "./bench.ts";

const TASKS_OFF = { CLAUDE_CODE_ENABLE_TASKS: "0" };
const TODOS = [
  { content: "Read the cart code", status: "completed", activeForm: "Reading the cart code" },
  { content: "Add totals", status: "in_progress", activeForm: "Adding totals" },
  { content: "Run the tests", status: "pending", activeForm: "Running the tests" },
];

let bench: ClaudeBench;
let run: ClaudeRun;
let firstRequest: LoggedRequest | undefined;
let afterCompact: LoggedRequest | undefined;

beforeAll(async () => {
  bench = await ClaudeBench.create();
  run = await bench.run({
    prompt: "plan the totals",
    env: TASKS_OFF,
    script: {
      turns: [
        capture((request) => (firstRequest = request), { tools: [{ id: "toolu_todo", name: "TodoWrite", input: { todos: TODOS } }] }),
        { text: "Planned." },
      ],
    },
  });
  await bench.run({ prompt: "/compact", resume: run.sessionId, env: TASKS_OFF });
  await bench.run({
    prompt: "continue",
    resume: run.sessionId,
    env: TASKS_OFF,
    script: { turns: [capture((request) => (afterCompact = request), { text: "Continuing." })] },
  });
});

afterAll(() => bench?.stop());

describe("Claude Code 2.1.328: TodoWrite with CLAUDE_CODE_ENABLE_TASKS=0", () => {
  test("the model is offered TodoWrite (a deferred tool, not TaskCreate), the call succeeds, the harness runs the hook", () => {
    const text = bench.server.wire.sentText(firstRequest?.body);
    expect(text).toMatch(/deferred tools are now available via ToolSearch[\s\S]*\nTodoWrite\n/);
    expect(text).not.toContain("\nTaskCreate\n");
    expect(offeredTools(firstRequest?.body)).not.toContain("TaskCreate");
    expect(toolResultFor(bench.server, "toolu_todo")).toEqual({ id: "toolu_todo", text: expect.stringContaining("Todos have been modified successfully"), isError: false });
    ran(run, "PostToolUse", "hooks:emit", "TodoWrite");
  });

  test("aioson stores the plan note; the checkpoint after the compaction brings it back to the model", () => {
    const plans = bench.events("event_type = 'note' AND tool_name = 'TodoWrite'");
    expect(plans.map((row) => [row.message, row.payload.summary])).toEqual([["Task list updated", "Tasks: 1 of 3 done"]]);
    const text = bench.server.wire.sentText(afterCompact?.body);
    expect(text).toContain("Plan: Tasks: 1 of 3 done\n- [x] Read the cart code\n- [~] Add totals\n- [ ] Run the tests");
  });
});
