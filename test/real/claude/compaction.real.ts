/**
 * Claude Code 2.1.328 compactions. An automatic one first: the first turn of a fresh session crosses the
 * `--autocompact` threshold, Claude fires PreCompact and then gives up (one exchange is "fewer than 2 groups,
 * nothing to compact"), and compacts for real after the next turn. Then a manual `/compact` of the resumed session.
 * Each time the checkpoint must reach the next model request, and the PreCompact that never compacted must not
 * move "since the previous compaction" (the file written before it stays in the checkpoint).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { ClaudeRun } from "../lib/drivers/claude.ts";
import type { LoggedRequest } from "../lib/server.ts";
import { capture, ClaudeBench, ran } from "./bench.ts";

const CHECKPOINT = "[AIOSON checkpoint]";
const NEAR_THRESHOLD = 170_000;

let bench: ClaudeBench;
let auto: ClaudeRun;
let manual: ClaudeRun;
let afterAuto: LoggedRequest | undefined;
let afterManual: LoggedRequest | undefined;

beforeAll(async () => {
  bench = await ClaudeBench.create();
  const P = bench.project;
  auto = await bench.run({
    prompt: "write a",
    args: ["--autocompact", "200000"],
    script: {
      turns: [
        { tools: [{ name: "Write", input: { file_path: `${P}/src/a.ts`, content: "export const a = 1;\n" } }], inputTokens: NEAR_THRESHOLD },
        { tools: [{ name: "Bash", input: { command: "true", description: "noop" } }], inputTokens: NEAR_THRESHOLD },
        capture((request) => (afterAuto = request), { text: "Wrote src/a.ts." }),
      ],
    },
  });
  await bench.run({
    prompt: "now b",
    resume: auto.sessionId,
    script: { turns: [{ tools: [{ name: "Write", input: { file_path: `${P}/src/b.ts`, content: "export const b = 2;\n" } }] }, { text: "Wrote src/b.ts." }] },
  });
  manual = await bench.run({ prompt: "/compact", resume: auto.sessionId });
  await bench.run({
    prompt: "continue",
    resume: auto.sessionId,
    script: { turns: [capture((request) => (afterManual = request), { text: "Continuing." })] },
  });
});

afterAll(() => bench?.stop());

describe("Claude Code 2.1.328: compaction and the checkpoint", () => {
  test("automatic: a PreCompact that gives up, then one that compacts; the checkpoint, with the file written before both, is in the next request", () => {
    const preCompacts = ran(auto, "PreCompact", "hooks:emit", "auto");
    const starts = ran(auto, "SessionStart", "hooks:recap", "compact");
    expect({ preCompacts: preCompacts.length, compactStarts: starts.length }).toEqual({ preCompacts: 2, compactStarts: 1 });
    const text = bench.server.wire.sentText(afterAuto?.body);
    expect(text).toContain(CHECKPOINT);
    expect(text).toContain("Files changed since the previous compaction:\n- src/a.ts");
  });

  test("manual /compact of the resumed session: the checkpoint is in the next request, bounded by the automatic compaction", () => {
    ran(manual, "PreCompact", "hooks:emit", "manual");
    ran(manual, "SessionStart", "hooks:recap", "compact");
    const text = bench.server.wire.sentText(afterManual?.body);
    expect(text).toContain(CHECKPOINT);
    expect(text).toContain("Files changed since the previous compaction:\n- src/b.ts");
    expect(text).not.toContain("- src/a.ts");
  });

  test("what aioson stored: each real compaction confirmed by its SessionStart(compact), the one that gave up not", () => {
    const markers = bench.events("harness_session_id = ? AND event_type IN ('compaction', 'compaction_confirmed')", auto.sessionId);
    expect(markers.map((row) => `${row.event_type} ${row.payload.trigger ?? row.payload.via}`)).toEqual([
      "compaction auto",
      "compaction auto",
      "compaction_confirmed SessionStart",
      "compaction manual",
      "compaction_confirmed SessionStart",
    ]);
    expect(markers.filter((row) => row.event_type === "compaction").every((row) => row.payload.needs_confirmation === true)).toBe(true);
    expect(markers[2]?.payload.marker).toBe(markers[1]?.id);
    expect(markers[4]?.payload.marker).toBe(markers[3]?.id);
  });
});
