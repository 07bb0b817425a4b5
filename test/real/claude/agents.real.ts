/**
 * Claude Code 2.1.328: agent activation from the prompt, and an async sub-agent. `Agent` fires PostToolUse at
 * launch (`status: "async_launched"`); its result comes back as a `<task-notification>` prompt that starts another
 * round with its own Stop. The sub-agent is recorded once; the stop-checklist reminder speaks at the end of the
 * user's turn and stays silent in the automatic round.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { ClaudeRun } from "../lib/drivers/claude.ts";
import { REMINDER_TEXT } from "../lib/texts.ts";
import { ClaudeBench, ran } from "./bench.ts";

const SUBAGENT = "SUBAGENT-REVIEW-CART";

let bench: ClaudeBench;
let run: ClaudeRun;

beforeAll(async () => {
  bench = await ClaudeBench.create({ guards: ["stop-checklist", "subagent-audit"], files: { "src/cart.ts": "export const total = 0;\n" } });
  const P = bench.project;
  run = await bench.run({
    prompt: "Please act as /aioson:agent:qa and review the cart.",
    timeoutMs: 300_000,
    script: {
      turns: [{ tools: [{ name: "Agent", input: { description: "Review cart", prompt: `${SUBAGENT}: review src/cart.ts`, subagent_type: "general-purpose" } }] }],
      lanes: [
        {
          name: "sub-agent",
          match: (request, wire) => wire.firstSentText(request.body).includes(SUBAGENT),
          turns: [
            { tools: [{ name: "Read", input: { file_path: `${P}/src/cart.ts` } }] },
            // Reports only once the user's turn is over (its reminder answered): the result then starts its own round.
            async () => {
              await bench.server.answered((request) => request.lane === null && bench.server.wire.lastSentText(request.body).includes(REMINDER_TEXT));
              return { text: "Reviewer report: src/cart.ts is fine." };
            },
          ],
        },
      ],
      // The main conversation answers by what it was just sent: the reminder, the notification, or the launch.
      fallback: (request, wire) => {
        const last = wire.lastSentText(request.body);
        if (last.includes("<task-notification>")) return { text: "The reviewer found src/cart.ts fine." };
        if (last.includes(REMINDER_TEXT)) return { text: "No tests to run for a review." };
        return { text: "Launched a reviewer." };
      },
    },
  });
});

afterAll(() => bench?.stop());

describe("Claude Code 2.1.328: agent activation and an async sub-agent", () => {
  test("the harness ran the hooks: SubagentStart, the Agent's PostToolUse, two prompts, three Stops", () => {
    ran(run, "SubagentStart", "guard:subagent-audit");
    ran(run, "PostToolUse", "hooks:emit", "Agent");
    expect(ran(run, "UserPromptSubmit", "hooks:emit").length).toBe(2);
    expect(ran(run, "Stop", "guard:stop-checklist").length).toBe(3);
  });

  test("the reminder reached the model once: at the end of the user's turn, not in the automatic round", () => {
    const main = bench.server.modelRequests().filter((request) => request.lane === null);
    const newest = (request: (typeof main)[number]) => bench.server.wire.lastSentText(request.body);
    expect(main.filter((request) => newest(request).includes(REMINDER_TEXT)).length).toBe(1);
    // The automatic round came after it: the request answering the notification holds no new reminder.
    const notified = main.findIndex((request) => newest(request).includes("<task-notification>"));
    const reminded = main.findIndex((request) => newest(request).includes(REMINDER_TEXT));
    expect(notified).toBeGreaterThan(reminded);
    expect(main.slice(notified + 1).some((request) => newest(request).includes(REMINDER_TEXT))).toBe(false);
    const decisions = bench.events("event_type = 'guard_decision'");
    expect(decisions.map((row) => [row.payload.guard, row.payload.decision])).toEqual([["stop-checklist", "block"]]);
  });

  test("aioson stored the activation, the sub-agent once, and one turn end per round (not for the continued Stop)", () => {
    const rows = bench.events("harness_session_id = ? AND run_key IS NOT NULL", run.sessionId);
    expect(rows.filter((row) => row.event_type === "agent_activated").map((row) => row.message)).toEqual(["Agent activated: @qa"]);
    expect(rows.filter((row) => row.event_type === "note").map((row) => [row.message, row.payload.tool])).toEqual([["Review cart", "Task"]]);
    expect(bench.events("event_type = 'subagent_started'").length).toBe(1);
    expect(rows.filter((row) => row.event_type === "agent_message").map((row) => row.message)).toEqual([
      "Launched a reviewer.",
      "No tests to run for a review.",
      "The reviewer found src/cart.ts fine.",
    ]);
    expect(rows.filter((row) => row.event_type === "agent_done").length).toBe(2);
  });

  test("the checkpoint names the activated agent", async () => {
    const recap = await bench.aioson(["hooks:recap", ".", "--when=always", `--session=${run.sessionId}`]);
    expect(recap.stdout).toContain("Agent: @qa");
  });
});
