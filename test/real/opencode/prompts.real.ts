/**
 * OpenCode 1.18.33 and `/agent` prompts: `opencode run "/dev fix it"` wraps its argument in double quotes, the same
 * words as separate arguments arrive unquoted; both activate. A wrapped prompt that names no agent activates
 * nothing. In a folder without `.aioson` the plugin spawns no process at all.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { opencodeWire, type OpencodeRun } from "../lib/drivers/opencode.ts";
import { capture } from "../lib/server.ts";
import { OpencodeBench, type Call } from "./bench.ts";

let bench: OpencodeBench;
let quoted: OpencodeRun;
let unquoted: OpencodeRun;
let plain: OpencodeRun;
let outside: OpencodeRun;
let outsideCalls: Call[];
let sentPrompt = "";

beforeAll(async () => {
  bench = await OpencodeBench.create();
  quoted = await bench.run({
    message: ["/dev fix the cart"],
    script: { turns: [capture((request) => (sentPrompt = opencodeWire.lastSentText(request.body)), { text: "Fixed." })] },
  });
  unquoted = await bench.run({ message: ["/qa", "check", "the", "cart"], script: { turns: [{ text: "Checked." }] } });
  plain = await bench.run({ message: ["fix the totals"], script: { turns: [{ text: "Done." }] } });
  const elsewhere = join(bench.world.root, "elsewhere");
  mkdirSync(elsewhere);
  const counting = bench.countingAioson("outside");
  outside = await bench.run({ message: ["/dev write here"], cwd: elsewhere, env: counting.env, script: { turns: [{ tools: [{ name: "write", input: { filePath: "x.txt", content: "x\n" } }] }, { text: "Wrote x.txt." }] } });
  outsideCalls = counting.calls();
});

afterAll(() => bench?.stop());

describe("OpenCode 1.18.33: /agent prompts", () => {
  test("opencode run really wraps the prompt: the model got it in double quotes", () => {
    expect(sentPrompt).toBe('"/dev fix the cart"');
  });

  test("the quoted and the unquoted prompt both activate their agent", () => {
    const activated = (run: OpencodeRun) => bench.events("harness_session_id = ? AND event_type = 'agent_activated'", run.sessionId).map((row) => row.payload.agent);
    expect(activated(quoted)).toEqual(["dev"]);
    expect(activated(unquoted)).toEqual(["qa"]);
    expect(activated(plain)).toEqual([]);
    expect(bench.events("harness_session_id = ? AND event_type = 'agent_message'", plain.sessionId).map((row) => row.payload.text)).toEqual(["Done."]);
  });

  test("a folder without .aioson: the write happened, no aioson process started, no .aioson created", () => {
    expect(existsSync(join(bench.world.root, "elsewhere", "x.txt"))).toBe(true);
    expect(outsideCalls).toEqual([]);
    expect(existsSync(join(bench.world.root, "elsewhere", ".aioson"))).toBe(false);
    expect(bench.events("harness_session_id = ?", outside.sessionId)).toEqual([]);
  });
});
