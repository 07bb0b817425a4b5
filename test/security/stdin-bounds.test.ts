/**
 * Issue 11 item 6, stdin and --event-file: whatever arrives, the peak resident memory stays under 64 MiB (GNU time's
 * "Maximum resident set size"), the read ends within its bound (spec 0.4: 5 s; 16 MiB stored), and a large but
 * valid payload is still recorded, its long strings cut with a visible mark.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTemp, rows } from "../helpers.ts";
import { hostileProject, peakRss, PEAK_BOUND_KIB, runBounded } from "./paths-helpers.ts";

afterAll(cleanupTemp);

describe("hooks:emit stdin floods", () => {
  test.each([
    ["yes (never ends; the 5 s bound ends it)", "yes"],
    ["100 MB of NUL bytes", "head -c 100000000 /dev/zero"],
    ["100 MB of random bytes", "head -c 100000000 /dev/urandom"],
    ["a 17 MiB JSON object (past the spec's 16 MiB)", `printf '{"a":"'; head -c 17825792 /dev/zero | tr '\\0' x; printf '"}'`],
  ])("%s: exit 0, peak under 64 MiB, no payload", (_label, feeder) => {
    const h = hostileProject();
    const run = peakRss(feeder, ["hooks:emit", h.project, "--json"], h);
    expect(run.code).toBe(0);
    expect(run.peakKiB).toBeLessThan(PEAK_BOUND_KIB);
    expect(JSON.parse(run.stdout)).toEqual({ ok: true, skipped: true });
    expect(run.log).toMatch(/no payload \((timeout|too-large|invalid-json)\)/);
  }, 30_000);

  test("a structure bomb (600,000 empty objects) is cut at a value boundary: exit 0, under 64 MiB, nothing recorded", () => {
    const h = hostileProject();
    const run = peakRss(`printf '{"a":['; yes '{},' | head -n 600000 | tr -d '\\n'; printf '{}]}'`, ["hooks:emit", h.project, "--json"], h);
    expect(run.code).toBe(0);
    expect(run.peakKiB).toBeLessThan(PEAK_BOUND_KIB);
    expect(JSON.parse(run.stdout)).toEqual({ ok: true, skipped: true });
    expect(run.log).toContain("payload names no event");
  }, 30_000);

  test("an 8 MB Gemini BeforeModel past the kept bound is cut after a complete value: its first message still counts", () => {
    const h = hostileProject();
    const big = join(h.base, "before-model.json");
    const turns = Array.from({ length: 400 }, (_, i) => ({ role: i % 2 ? "model" : "user", content: `turn ${i} ${"z".repeat(20_000)}` }));
    const first = { role: "user", content: "<session_context>x</session_context><state_snapshot>\n<overall_goal>Ship it</overall_goal>\n</state_snapshot>" };
    writeFileSync(big, JSON.stringify({ session_id: "2c446cde-a241-4485-b90d-b0ee365ecf4d", cwd: h.project, hook_event_name: "BeforeModel", llm_request: { model: "gemini-2.5-flash", messages: [first, ...turns], config: { temperature: 1 } } }));
    const run = peakRss(`cat '${big}'`, ["hooks:emit", h.project, "--source=gemini", "--json"], h);
    expect(run.peakKiB).toBeLessThan(PEAK_BOUND_KIB);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, event: "compaction" });
  }, 30_000);

  test("a valid 15 MB Write payload is recorded within the bound; only the path is stored", () => {
    const h = hostileProject();
    const big = join(h.base, "big.json");
    writeFileSync(big, JSON.stringify({ hook_event_name: "PostToolUse", session_id: "S", tool_name: "Write", tool_input: { file_path: "src/big.ts", content: "д".repeat(7_500_000) } }));
    const run = peakRss(`cat '${big}'`, ["hooks:emit", h.project, "--json"], h);
    expect(run.code).toBe(0);
    expect(run.peakKiB).toBeLessThan(PEAK_BOUND_KIB);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, message: "Write: src/big.ts" });
  }, 30_000);

  test("a 10 MB Bash output keeps its head and its tail: the verdict at the end still counts", () => {
    const h = hostileProject();
    const big = join(h.base, "bash.json");
    const output = `${"line\n".repeat(2 * 1024 * 1024)}Tests: 4 passed\nProcess exited with code 0\n`;
    writeFileSync(big, JSON.stringify({ hook_event_name: "PostToolUse", session_id: "S", tool_name: "Bash", tool_input: { command: "npm test" }, tool_response: output }));
    const run = peakRss(`cat '${big}'`, ["hooks:emit", h.project, "--source=codex", "--json"], h);
    expect(run.peakKiB).toBeLessThan(PEAK_BOUND_KIB);
    const payload = JSON.parse(rows<{ payload_json: string }>(h.project, "SELECT payload_json FROM execution_events WHERE event_type = 'step_done'")[0]?.payload_json ?? "{}");
    expect(payload).toMatchObject({ outcome: "passed", exit_code: 0, summary: "Tests: 4 passed" });
  }, 30_000);
});

describe("context:guard inputs", () => {
  test("--event-file=/dev/zero ends at once with {}", async () => {
    const h = hostileProject();
    const run = await runBounded(["context:guard", h.project, "--json", "--event-file=/dev/zero"], { h });
    expect(run.timedOut).toBe(false);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({});
  });

  test("--event-file larger than 16 MiB is not read", async () => {
    const h = hostileProject();
    const big = join(h.base, "event.json");
    writeFileSync(big, `{"tool_name":"Write","tool_input":{"file_path":"a.ts","content":"${"x".repeat(17 * 1024 * 1024)}"}}`);
    const run = peakRss("true", ["context:guard", h.project, "--json", `--event-file=${big}`], h);
    expect(run.code).toBe(0);
    expect(run.peakKiB).toBeLessThan(PEAK_BOUND_KIB);
    expect(JSON.parse(run.stdout)).toEqual({});
  }, 30_000);

  test("a stdin flood ends within context:guard's own bound, under 64 MiB", () => {
    const h = hostileProject();
    const run = peakRss("yes", ["context:guard", h.project, "--json"], h);
    expect(run.code).toBe(0);
    expect(run.peakKiB).toBeLessThan(PEAK_BOUND_KIB);
    expect(JSON.parse(run.stdout)).toEqual({});
  }, 30_000);
});

describe("the guard kit", () => {
  test("a stdin flood at a guard: exit 0, under 64 MiB", () => {
    const h = hostileProject();
    const run = peakRss("head -c 100000000 /dev/zero", ["guard:verify-claims", h.project], h);
    expect(run.code).toBe(0);
    expect(run.peakKiB).toBeLessThan(PEAK_BOUND_KIB);
  }, 30_000);
});
