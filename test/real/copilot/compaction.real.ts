/**
 * GitHub Copilot CLI 1.0.102 compaction: with a 40,000-token prompt budget and answers reporting 36,000 prompt tokens
 * it compacts in the background; preCompact fires and nothing runs after the compaction, so the checkpoint comes with
 * the next tool call's postToolUse, once, as the top-level additionalContext the CLI reads there.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { LoggedRequest } from "../lib/server.ts";
import { CopilotBench, toolMessages } from "./bench.ts";

const CHECKPOINT = "[AIOSON checkpoint]";

let bench: CopilotBench;
const seen: LoggedRequest[] = [];

beforeAll(async () => {
  bench = await CopilotBench.create({ files: { "src/.keep": "" } });
  const P = bench.project;
  const step = (reply: { text?: string; inputTokens?: number; tools?: Array<{ name: string; input: Record<string, unknown> }> }) => (request: LoggedRequest) => {
    seen.push(request);
    return reply;
  };
  await bench.run({
    prompt: "a long job",
    env: { COPILOT_PROVIDER_MAX_PROMPT_TOKENS: "40000", COPILOT_PROVIDER_MAX_OUTPUT_TOKENS: "2000" },
    script: {
      turns: [
        step({ inputTokens: 36_000, tools: [{ name: "create", input: { path: `${P}/src/a.ts`, file_text: "export const a = 1;\n" } }] }),
        step({ inputTokens: 5_000, tools: [{ name: "bash", input: { command: "echo one", description: "one" } }] }),
        step({ inputTokens: 5_000, tools: [{ name: "bash", input: { command: "echo two", description: "two" } }] }),
        step({ inputTokens: 5_000, text: "Done." }),
      ],
      compactions: [{ text: "Summary: the user asked for a long job; src/a.ts was written." }],
    },
  });
});

afterAll(() => bench?.stop());

describe("GitHub Copilot CLI 1.0.102: compaction and the checkpoint", () => {
  test("one compaction, one marker", () => {
    expect(bench.server.requests.filter((request) => request.kind === "compact")).toHaveLength(1);
    expect(bench.events("event_type = 'compaction'").map((row) => row.payload.trigger)).toEqual(["auto"]);
  });

  test("the checkpoint came once, with a tool result after the compaction, holding the file written before it", () => {
    const carrying = seen.map((request) => toolMessages(request.body).filter((text) => text.includes(CHECKPOINT)).length);
    const last = seen.at(-1);
    expect(toolMessages(last?.body).filter((text) => text.includes(CHECKPOINT))).toHaveLength(1);
    expect(Math.max(...carrying)).toBe(1);
    expect(toolMessages(last?.body).find((text) => text.includes(CHECKPOINT))).toContain("src/a.ts");
  });
});
