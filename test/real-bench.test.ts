/**
 * The real-harness bench (test/real, `npm run test:real`) stays out of `npm test` and its pure parts are right:
 * no file of it has a name `bun test`'s scan picks up, the pin file is valid and pins every harness, the debug-log
 * parser reads Claude Code's hook lines, the Anthropic wire streams what Claude Code parses, the Responses wire what
 * Codex parses.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { parseHookRuns } from "./real/lib/drivers/claude.ts";
import { pins } from "./real/lib/pins.ts";
import { ModelServer } from "./real/lib/server.ts";
import { anthropicWire, lastToolResults } from "./real/lib/wire/anthropic.ts";
import { opencodeWire } from "./real/lib/drivers/opencode.ts";
import { lastToolResults as lastChatToolResults, offeredTools, systemMessages } from "./real/lib/wire/chat.ts";
import { developerTexts, responsesWire, toolOutputFor } from "./real/lib/wire/responses.ts";
import { REPO_ROOT } from "./helpers.ts";

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)]));
}

describe("the real-harness bench", () => {
  test("bun test's default scan never picks a bench file up (names *.test.*, *_test.*, *.spec.*, *_spec.*)", () => {
    const bench = files(join(REPO_ROOT, "test", "real")).map((path) => relative(REPO_ROOT, path));
    expect(bench.some((path) => path.endsWith(".real.ts"))).toBe(true);
    expect(bench.filter((path) => /(?:[._-](?:test|spec))\.[cm]?[jt]sx?$/.test(path))).toEqual([]);
  });

  test("the pin file pins the five harnesses of real-harnesses.md at exact versions", () => {
    const pinned = Object.fromEntries(Object.entries(pins()).map(([name, pin]) => [name, `${pin.package}@${pin.version}`]));
    expect(pinned).toEqual({
      claude: "@anthropic-ai/claude-code@2.1.328",
      codex: "@openai/codex@0.169.0",
      opencode: "opencode-ai@1.18.33",
      gemini: "@google/gemini-cli@0.61.0",
      copilot: "@github/copilot@1.0.102",
    });
    for (const pin of Object.values(pins())) expect(Object.keys(pin.executables)).toContain("linux-x64");
  });

  test("Claude Code's debug lines: tool events, events without a query, the teardown form", () => {
    const debug = [
      '2026-12-01T13:28:01.669Z [DEBUG] Hooks: PreToolUse:Write [aioson context:guard "$PWD" --json 2>/dev/null || true] finished with status 0 (79ms)',
      "2026-12-01T13:28:02.345Z [DEBUG] Hooks: Stop [aioson hooks:emit --then=agent:done] finished with status 2 (32ms)",
      "2026-12-01T13:51:21.615Z [DEBUG] PreCompact:auto [aioson hooks:emit] completed with status 0",
      "2026-12-01T13:50:27.704Z [DEBUG] SessionEnd:other [aioson hooks:emit --event=SessionEnd] completed with status 0",
      "2026-12-01T13:28:01.640Z [DEBUG] Hooks: Checking first line for async: {}",
    ].join("\n");
    expect(parseHookRuns(debug).map(({ event, query, status }) => `${event}:${query}=${status}`)).toEqual(["PreToolUse:Write=0", "Stop:=2", "PreCompact:auto=0", "SessionEnd:other=0"]);
  });

  test("the scripted Anthropic server: a streamed tool call, side requests, the log of what was sent", async () => {
    const server = new ModelServer(anthropicWire, { turns: [{ text: "Writing.", tools: [{ id: "toolu_1", name: "Write", input: { file_path: "/p/a.ts", content: "x" } }] }] });
    try {
      const body = { model: "m", stream: true, messages: [{ role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_0", content: "ok" }, { type: "text", text: "go" }] }] };
      const response = await fetch(`${server.url}/v1/messages?beta=true`, { method: "POST", body: JSON.stringify(body) });
      const events = (await response.text()).split("\n").filter((line) => line.startsWith("data: ")).map((line) => JSON.parse(line.slice(6)) as { type: string; delta?: { partial_json?: string; stop_reason?: string } });
      expect(events.map((event) => event.type)).toEqual([
        "message_start", "content_block_start", "content_block_delta", "content_block_stop", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop",
      ]);
      expect(JSON.parse(events[5]?.delta?.partial_json ?? "")).toEqual({ file_path: "/p/a.ts", content: "x" });
      expect(events[7]?.delta?.stop_reason).toBe("tool_use");
      const count = await fetch(`${server.url}/v1/messages/count_tokens`, { method: "POST", body: "{}" });
      expect(await count.json()).toEqual({ input_tokens: 1_000 });
      expect(server.requests.map((request) => request.kind)).toEqual(["turn", "side"]);
      expect(server.sentContaining("go").length).toBe(1);
      expect(lastToolResults(server.requests[0]?.body)).toEqual([{ id: "toolu_0", text: "ok", isError: false }]);
    } finally {
      server.stop();
    }
  });

  test("the scripted Chat Completions server (OpenCode's wire): streamed text and tool calls, usage, titles and summaries told apart", async () => {
    const server = new ModelServer(opencodeWire, {
      turns: [{ text: "Writing.", tools: [{ id: "call_1", name: "write", input: { filePath: "a.ts", content: "x" } }], inputTokens: 150_000 }],
      compactions: [{ text: "SUMMARY" }],
    });
    try {
      const post = (body: unknown) => fetch(`${server.url}/v1/chat/completions`, { method: "POST", body: JSON.stringify(body) });
      const turn = {
        model: "bench-model",
        stream: true,
        tools: [{ type: "function", function: { name: "write", parameters: {} } }],
        messages: [
          { role: "system", content: "You are opencode" },
          { role: "system", content: "[AIOSON checkpoint] extra" },
          { role: "user", content: [{ type: "text", text: "go" }] },
          { role: "assistant", content: "", tool_calls: [{ id: "call_0", type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } }] },
          { role: "tool", tool_call_id: "call_0", content: "a.ts" },
        ],
      };
      const lines = (await (await post(turn)).text()).split("\n").filter((line) => line.startsWith("data: ")).map((line) => line.slice(6));
      expect(lines.at(-1)).toBe("[DONE]");
      const chunks = lines.slice(0, -1).map((line) => JSON.parse(line) as { object: string; choices: Array<{ delta: Record<string, unknown>; finish_reason: string | null }>; usage?: Record<string, number> });
      expect(chunks.every((chunk) => chunk.object === "chat.completion.chunk")).toBe(true);
      expect(chunks.map((chunk) => Object.keys(chunk.choices[0]?.delta ?? {}).join("+") || (chunk.usage ? "usage" : chunk.choices[0]?.finish_reason))).toEqual(["role+content", "content", "tool_calls", "tool_calls", "usage"]);
      expect(chunks[2]?.choices[0]?.delta).toEqual({ tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "write", arguments: '{"filePath":"a.ts","content":"x"}' } }] });
      expect(chunks[4]?.usage).toEqual({ prompt_tokens: 150_000, completion_tokens: 40, total_tokens: 150_040 });
      const title = (await (await post({ model: "m", messages: [{ role: "system", content: "You are a title generator. You output ONLY a thread title." }, { role: "user", content: "go" }] })).json()) as { choices: Array<{ message: { content: string } }> };
      expect(title.choices[0]?.message.content).toBe("Bench session");
      const summary = await (await post({ model: "m", stream: true, messages: [{ role: "system", content: "You are a context summarization agent." }, { role: "user", content: "Here is the conversation so far:" }] })).text();
      expect(summary).toContain('"content":"SUMMARY"');
      expect(server.requests.map((request) => request.kind)).toEqual(["turn", "side", "compact"]);
      const body = server.requests[0]?.body;
      expect(lastChatToolResults(body)).toEqual([{ id: "call_0", text: "a.ts" }]);
      expect(offeredTools(body)).toEqual(["write"]);
      expect(systemMessages(body)).toEqual(["You are opencode", "[AIOSON checkpoint] extra"]);
      expect(opencodeWire.lastSentText(body)).toBe("a.ts");
      expect(opencodeWire.firstSentText(body)).toBe("go");
      expect(server.sentContaining('bash {"command":"ls"}').length).toBe(1);
    } finally {
      server.stop();
    }
  });

  test("the scripted Responses server: apply_patch as a custom tool call, others as function calls, local compaction told apart", async () => {
    const patch = "*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch\n";
    const server = new ModelServer(responsesWire, {
      turns: [{ tools: [{ id: "call_p", name: "apply_patch", input: { input: patch } }, { id: "call_e", name: "exec_command", input: { cmd: "ls" } }], inputTokens: 150_000 }],
      compactions: [{ text: "the summary" }],
    });
    try {
      const turn = { model: "gpt-5.5", stream: true, input: [{ type: "message", role: "developer", content: [{ type: "input_text", text: "rules" }] }, { type: "message", role: "user", content: [{ type: "input_text", text: "go" }] }, { type: "function_call_output", call_id: "call_0", output: "Process exited with code 2" }] };
      const response = await fetch(`${server.url}/v1/responses`, { method: "POST", body: JSON.stringify(turn) });
      const events = (await response.text()).split("\n").filter((line) => line.startsWith("data: ")).map((line) => JSON.parse(line.slice(6)) as { type: string; item?: Record<string, unknown>; response?: { usage: { input_tokens: number } } });
      expect(events.map((event) => event.type)).toEqual(["response.created", "response.output_item.added", "response.output_item.done", "response.output_item.added", "response.output_item.done", "response.completed"]);
      expect(events[2]?.item).toMatchObject({ type: "custom_tool_call", call_id: "call_p", name: "apply_patch", input: patch });
      expect(events[4]?.item).toMatchObject({ type: "function_call", call_id: "call_e", name: "exec_command", arguments: JSON.stringify({ cmd: "ls" }) });
      expect(events[5]?.response?.usage.input_tokens).toBe(150_000);
      const compact = { ...turn, input: [...turn.input, { type: "message", role: "user", content: [{ type: "input_text", text: "You are performing a CONTEXT CHECKPOINT COMPACTION. Create a handoff summary" }] }] };
      const summary = await fetch(`${server.url}/v1/responses`, { method: "POST", body: JSON.stringify(compact) });
      expect(await summary.text()).toContain("the summary");
      expect(server.requests.map((request) => request.kind)).toEqual(["turn", "compact"]);
      expect(toolOutputFor(server.requests[0]?.body, "call_0")).toBe("Process exited with code 2");
      expect(developerTexts(server.requests[0]?.body)).toEqual(["rules"]);
      expect(responsesWire.firstSentText(server.requests[0]?.body)).toBe("go");
    } finally {
      server.stop();
    }
  });
});
