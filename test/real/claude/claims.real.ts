/**
 * Claude Code 2.1.328 with verify-claims: an answer naming a file the turn wrote passes even though the turn
 * loaded a deferred tool (the `api-request-blob` "Tool loaded." line the reader used to take for the user's turn);
 * a path no tool touched blocks once, the corrected answer passes, and the continued Stop is not a second turn end.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { ClaudeRun } from "../lib/drivers/claude.ts";
import { ClaudeBench, ran, sent } from "./bench.ts";

let bench: ClaudeBench;
let run: ClaudeRun;

beforeAll(async () => {
  bench = await ClaudeBench.create({ guards: ["verify-claims"] });
  const P = bench.project;
  run = await bench.run({
    prompt: "add the totals module",
    script: {
      turns: [
        { tools: [{ name: "ToolSearch", input: { query: "select:TaskCreate" } }] },
        { tools: [{ name: "Write", input: { file_path: `${P}/src/totals.ts`, content: "export const total = 0;\n" } }] },
        { text: "Wrote src/totals.ts and updated src/ghost.ts." },
        { text: "Wrote src/totals.ts." },
      ],
    },
  });
});

afterAll(() => bench?.stop());

describe("Claude Code 2.1.328: verify-claims", () => {
  test("the harness ran the guard on both Stops", () => {
    expect(ran(run, "Stop", "guard:verify-claims").length).toBe(2);
    expect(bench.server.unscripted).toBe(0);
  });

  test("the model was told about the untouched path only, once", () => {
    const blocked = sent(bench.server, "UNVERIFIED FILE REFERENCES");
    expect(blocked.length).toBe(1);
    const text = bench.server.wire.sentText(blocked[0]?.body);
    expect(text).toContain("these paths were mentioned without prior tool verification: src/ghost.ts.");
    expect(text).not.toContain("verification: src/totals.ts");
  });

  test("aioson stored the block as a guard decision, both answers, and one turn end", () => {
    const decisions = bench.events("event_type = 'guard_decision'");
    expect(decisions.map((row) => [row.payload.guard, row.payload.decision, row.harness_session_id])).toEqual([["verify-claims", "block", run.sessionId]]);
    expect(String(decisions[0]?.payload.reason)).toContain("src/ghost.ts");
    const rows = bench.events("harness_session_id = ? AND run_key IS NOT NULL", run.sessionId);
    expect(rows.filter((row) => row.event_type === "agent_message").map((row) => row.message)).toEqual(["Wrote src/totals.ts and updated src/ghost.ts.", "Wrote src/totals.ts."]);
    expect(rows.filter((row) => row.event_type === "agent_done").length).toBe(1);
  });
});
