/**
 * The real-harness bench (test/real, `npm run test:real`) stays out of `npm test` and its pure parts are right:
 * no file of it has a name `bun test`'s scan picks up, the pin file is valid and pins every harness, the debug-log
 * parser reads Claude Code's hook lines, the Anthropic wire streams what Claude Code parses.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { parseHookRuns } from "./real/lib/drivers/claude.ts";
import { pins } from "./real/lib/pins.ts";
import { ModelServer } from "./real/lib/server.ts";
import { anthropicWire, lastToolResults } from "./real/lib/wire/anthropic.ts";
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
});
