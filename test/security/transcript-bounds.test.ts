/**
 * A transcript is whatever file a payload names: the Stop guards read its tail, and neither a turn bigger than
 * memory nor a huge transcript may blow a hook's memory up (issue 11, "Every input is bounded"). A turn that starts
 * further back than the guards read is judged incomplete: a notice, never a block on what could not be seen.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { closeSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { cleanupTemp } from "../helpers.ts";
import { hostileProject, PEAK_BOUND_KIB, peakRss, type Hostile } from "./paths-helpers.ts";

afterAll(cleanupTemp);

const TOOL_OUTPUT = "x".repeat(2_000);

/** A Claude transcript of `megabytes` MiB: one user prompt, then (when `oneTurn`) one endless turn of Bash calls. */
function writeTranscript(h: Hostile, name: string, megabytes: number, oneTurn: boolean): string {
  const path = join(h.base, name);
  const fd = openSync(path, "w");
  let size = 0;
  const line = (value: unknown): void => {
    size += writeSync(fd, `${JSON.stringify(value)}\n`);
  };
  line({ type: "user", message: { role: "user", content: "fix the cart" } });
  while (size < megabytes * 1024 * 1024) {
    if (!oneTurn) line({ type: "user", message: { role: "user", content: `next ${TOOL_OUTPUT}` } });
    line({ type: "assistant", message: { role: "assistant", content: [{ type: "tool_use", name: "Bash", input: { command: `echo ${TOOL_OUTPUT}` } }] } });
    line({ type: "user", message: { role: "user", content: [{ type: "tool_result", content: TOOL_OUTPUT }] } });
  }
  line({ type: "assistant", message: { role: "assistant", content: [{ type: "text", text: "I changed src/cart.ts" }] } });
  closeSync(fd);
  return path;
}

function stopPayload(h: Hostile, transcript: string): string {
  return JSON.stringify({ hook_event_name: "Stop", session_id: "S-1", cwd: h.project, transcript_path: transcript, last_assistant_message: "I changed src/cart.ts" });
}

describe("Stop guards over huge transcripts", () => {
  for (const [label, oneTurn] of [["one 40 MiB turn", true], ["40 MiB of short turns", false]] as const) {
    for (const guard of ["verify-claims", "context-confidence-check"]) {
      test(`${guard}, ${label}: peak memory under 64 MiB`, () => {
        const h = hostileProject();
        const transcript = writeTranscript(h, "transcript.jsonl", 40, oneTurn);
        const payload = join(h.base, "payload.json");
        Bun.write(payload, stopPayload(h, transcript));
        const run = peakRss(`cat '${payload}'`, [`guard:${guard}`, h.project], h);
        expect(run.code).toBe(0);
        expect(run.peakKiB).toBeLessThan(PEAK_BOUND_KIB);
      });
    }
  }

  test("a turn longer than the window read is not blocked: a notice says what was not checked", () => {
    const h = hostileProject();
    const transcript = writeTranscript(h, "transcript.jsonl", 8, true);
    const payload = join(h.base, "payload.json");
    Bun.write(payload, stopPayload(h, transcript));
    const run = peakRss(`cat '${payload}'`, ["guard:verify-claims", h.project], h);
    expect(run.code).toBe(0);
    const answer = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(answer.decision).toBeUndefined();
    expect(String(answer.systemMessage)).toContain("the turn is longer than the last 4 MiB of the transcript");
    expect(String(answer.systemMessage)).toContain("src/cart.ts");
  });

  test("the same answer after a turn that fits is judged (the path was never touched: blocked)", () => {
    const h = hostileProject();
    const transcript = writeTranscript(h, "transcript.jsonl", 8, false);
    const payload = join(h.base, "payload.json");
    Bun.write(payload, stopPayload(h, transcript));
    const run = peakRss(`cat '${payload}'`, ["guard:verify-claims", h.project], h);
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as Record<string, unknown>).decision).toBe("block");
  });
});
