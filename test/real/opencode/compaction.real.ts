/**
 * OpenCode 1.18.33 compactions. Automatic: a reply reporting more input tokens than the model's context makes
 * OpenCode summarise and continue by itself. Manual: what the TUI's `/compact` calls, `POST /session/{id}/summarize`
 * on `opencode serve`. Each time the checkpoint is in the summary request and once in the next system prompt, the
 * marker says which kind it was, and the summary is never stored as the agent's message.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { CONTEXT_LIMIT, type OpencodeRun } from "../lib/drivers/opencode.ts";
import { capture, DEFAULT_SUMMARY, type LoggedRequest } from "../lib/server.ts";
import { systemMessages } from "../lib/wire/chat.ts";
import { CHECKPOINT, OpencodeBench, occurrences } from "./bench.ts";

let bench: OpencodeBench;
let auto: OpencodeRun;
let manualSession = "";
const seen: Record<string, LoggedRequest> = {};
const keep = (name: string, text: string) => capture((request) => (seen[name] = request), { text });

beforeAll(async () => {
  bench = await OpencodeBench.create();
  const P = bench.project;
  auto = await bench.run({
    message: ["/dev write a and b"],
    script: {
      turns: [
        { tools: [{ name: "write", input: { filePath: join(P, "src", "a.ts"), content: "export const a = 1;\n" } }], inputTokens: CONTEXT_LIMIT + 50_000 },
        capture((request) => (seen.afterAuto = request), { tools: [{ name: "write", input: { filePath: join(P, "src", "b.ts"), content: "export const b = 2;\n" } }] }),
        keep("laterAuto", "Wrote src/a.ts and src/b.ts."),
      ],
      compactions: [capture((request) => (seen.autoSummary = request), { text: DEFAULT_SUMMARY })],
    },
  });
  const serve = await bench.serve();
  try {
    manualSession = await serve.createSession();
    bench.server.script({
      turns: [{ tools: [{ name: "write", input: { filePath: join(P, "src", "c.ts"), content: "export const c = 3;\n" } }] }, { text: "Wrote src/c.ts." }, keep("afterManual", "Continuing."), keep("laterManual", "Still going.")],
      compactions: [capture((request) => (seen.manualSummary = request), { text: DEFAULT_SUMMARY })],
    });
    await serve.prompt(manualSession, "/dev write c");
    await serve.summarize(manualSession);
    await serve.prompt(manualSession, "continue");
    await serve.prompt(manualSession, "and then");
  } finally {
    const stopped = await serve.stop();
    expect(serve.logs).not.toContain("failed to load plugin");
    expect(stopped.timedOut).toBe(false);
  }
});

afterAll(() => bench?.stop());

const system = (request: LoggedRequest | undefined) => systemMessages(request?.body).join("\n");

describe("OpenCode 1.18.33: compaction and the checkpoint", () => {
  test("automatic: the checkpoint is in the summary request and once in the next system prompt, not in the one after", () => {
    expect(bench.server.wire.sentText(seen.autoSummary?.body)).toContain(CHECKPOINT);
    expect(bench.server.wire.sentText(seen.autoSummary?.body)).toContain("src/a.ts");
    expect(occurrences(system(seen.afterAuto), CHECKPOINT)).toBe(1);
    expect(occurrences(system(seen.laterAuto), CHECKPOINT)).toBe(0);
  });

  test("manual (POST /session/{id}/summarize): the same, for the next prompt of that session", () => {
    expect(bench.server.wire.sentText(seen.manualSummary?.body)).toContain(CHECKPOINT);
    expect(bench.server.wire.sentText(seen.manualSummary?.body)).toContain("src/c.ts");
    expect(occurrences(system(seen.afterManual), CHECKPOINT)).toBe(1);
    expect(occurrences(system(seen.laterManual), CHECKPOINT)).toBe(0);
  });

  test("what aioson stored: the marker names the kind, and the agent messages are the answers, never the summary", () => {
    const stored = (session: string) => bench.events("harness_session_id = ? AND run_key IS NOT NULL", session);
    expect(stored(auto.sessionId).filter((row) => row.event_type === "compaction").map((row) => row.message)).toEqual(["Compaction (auto)"]);
    expect(stored(manualSession).filter((row) => row.event_type === "compaction").map((row) => row.message)).toEqual(["Compaction (manual)"]);
    expect(stored(auto.sessionId).filter((row) => row.event_type === "agent_message").map((row) => row.payload.text)).toEqual(["Wrote src/a.ts and src/b.ts."]);
    expect(stored(manualSession).filter((row) => row.event_type === "agent_message").map((row) => row.payload.text)).toEqual(["Wrote src/c.ts.", "Continuing.", "Still going."]);
    expect(bench.events("event_type = 'agent_message' AND payload_json LIKE '%work is in progress%'")).toEqual([]);
  });
});
