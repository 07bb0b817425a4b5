/**
 * OpenCode 1.18.33 exits right after its last answer; the plugin's queue lives in OpenCode's process. A burst of
 * twelve parallel writes with an aioson slowed to 250 ms a call: dispose() hands every queued event over before
 * OpenCode exits. A burst larger than the queue (16 waiting): what it turned away is counted in the hook log, and
 * the rows stored plus the count dropped are every event OpenCode reported.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { OpencodeRun } from "../lib/drivers/opencode.ts";
import { OpencodeBench } from "./bench.ts";

const writes = (prefix: string, count: number) => ({ tools: Array.from({ length: count }, (_, i) => ({ name: "write", input: { filePath: `${prefix}/f${i}.txt`, content: `${i}\n` } })) });

let bench: OpencodeBench;
let burst: OpencodeRun;
let flood: OpencodeRun;
let logAfterBurst: string;

beforeAll(async () => {
  bench = await OpencodeBench.create();
  const slow = bench.countingAioson("slow", 0.25);
  burst = await bench.run({ message: ["/dev write twelve files"], env: slow.env, script: { turns: [writes("burst", 12), { text: "Wrote twelve files." }] } });
  logAfterBurst = bench.hookLog();
  flood = await bench.run({ message: ["/dev write thirty files"], env: slow.env, script: { turns: [writes("flood", 30), { text: "Wrote thirty files." }] } });
});

afterAll(() => bench?.stop());

describe("OpenCode 1.18.33: exit with a full queue", () => {
  test("twelve parallel writes with a slowed aioson: the activation, every write and the answer landed", () => {
    const rows = bench.events("harness_session_id = ? AND run_key IS NOT NULL AND event_type != 'session_started'", burst.sessionId);
    const files = Array.from({ length: 12 }, (_, i) => `artifact: Write: burst/f${i}.txt`);
    expect(rows.map((row) => `${row.event_type}: ${row.message}`).sort()).toEqual(["agent_activated: Agent activated: @dev", "agent_message: Wrote twelve files.", ...files].sort());
    expect(logAfterBurst).not.toContain("dropped");
  });

  test("thirty parallel writes: the queue turned some away, the hook log counts them, stored + dropped = all 32 events", () => {
    const stored = bench.events("harness_session_id = ? AND run_key IS NOT NULL AND event_type != 'session_started'", flood.sessionId).length;
    const counts = [...bench.hookLog().matchAll(/OpenCode plugin: (\d+) events? dropped, its queue was full/g)].map((match) => Number(match[1]));
    const dropped = counts.reduce((sum, n) => sum + n, 0);
    expect(dropped).toBeGreaterThan(0);
    // 30 writes + the activating prompt + the answer.
    expect(stored + dropped).toBe(32);
  });
});
