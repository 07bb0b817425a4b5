/**
 * Issue 25 item 5, the live folder race: a process in the project (an agent's sandboxed command may write there and
 * nowhere else) swaps `.aioson/runtime/live`, or a session folder below it, for a symlink to a folder outside and back,
 * as fast as it can, while hooks write. A check of the path before the write is not enough (the swap lands between
 * the check and the open); every write must land inside the project or not at all, and nothing outside may change.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTemp, runAioson } from "../helpers.ts";
import { type Hostile, hostileProject, outsideState, runBounded, runtimeOf, WRITE_PAYLOAD } from "./paths-helpers.ts";

afterAll(cleanupTemp);

/** How long the hooks race the swapper: the unfixed build wrote outside within about 1.5 s. */
const RACE_MS = 4_000;

/**
 * The swapper, a separate process: `target` becomes a symlink to `outside` and goes back to the real folder, in a
 * tight loop, for `ms`. A folder a hook makes while the name is free is moved aside (the attacker keeps going).
 */
const SWAPPER = `
const { renameSync, rmSync, symlinkSync } = require("node:fs");
const [target, outside, ms] = process.argv.slice(-3);
const real = target + ".real", link = target + ".link", stray = target + ".stray";
symlinkSync(outside, link);
let swaps = 0;
const end = Date.now() + Number(ms);
while (Date.now() < end) {
  try {
    renameSync(target, real);
    renameSync(link, target);
    for (let i = 0; i < 2000; i++);
    renameSync(target, link);
    renameSync(real, target);
    swaps += 1;
  } catch {
    try { renameSync(target, stray); rmSync(stray, { recursive: true, force: true }); } catch {}
    try { renameSync(real, target); } catch {}
  }
}
console.log(swaps);
`;

/** A first event: the hooks session and its live folder exist. */
function startSession(h: Hostile): string {
  const run = runAioson(["hooks:emit", h.project, "--json"], { stdin: JSON.stringify(WRITE_PAYLOAD), home: h.home });
  return (run.json as { sessionKey: string }).sessionKey;
}

/** Two hooks at a time write events into the session until the race is over; returns how many ran. */
async function emitDuring(h: Hostile, ms: number): Promise<number> {
  const end = Date.now() + ms;
  let runs = 0;
  const worker = async (): Promise<void> => {
    while (Date.now() < end) {
      const run = await runBounded(["hooks:emit", h.project], { h, stdin: JSON.stringify(WRITE_PAYLOAD), boundMs: 10_000 });
      expect(run.code).toBe(0);
      runs += 1;
    }
  };
  await Promise.all([worker(), worker()]);
  return runs;
}

async function race(h: Hostile, target: string): Promise<{ swaps: number; runs: number }> {
  const swapper = Bun.spawn([process.execPath, "-e", SWAPPER, target, h.outside, String(RACE_MS)], { stdout: "pipe", stderr: "pipe" });
  const runs = await emitDuring(h, RACE_MS);
  const [out, code] = await Promise.all([new Response(swapper.stdout).text(), swapper.exited]);
  expect(code).toBe(0);
  return { swaps: Number(out.trim()), runs };
}

describe("a folder swapped for a symlink while hooks write", () => {
  test("live/ swapped to a folder outside (holding a session folder of the same name): nothing is written outside", async () => {
    const h = hostileProject();
    const sessionKey = startSession(h);
    // The attacker's target folder already has the session's folder, so a write through the link would succeed.
    mkdirSync(join(h.outside, sessionKey));
    const before = outsideState(h);
    const { swaps, runs } = await race(h, join(runtimeOf(h.project), "live"));
    expect(swaps).toBeGreaterThan(100);
    expect(runs).toBeGreaterThan(10);
    expect(outsideState(h)).toEqual(before);
    expect(readdirSync(join(h.outside, sessionKey))).toEqual([]);
  }, 30_000);

  test("live/ swapped to a folder outside holding a state.json: it is never read into the project, nor rewritten", async () => {
    const h = hostileProject();
    const sessionKey = startSession(h);
    const project = join(runtimeOf(h.project), "live", sessionKey, "state.json");
    // A state.json outside that passes the schema (its key names this session): read through the link, its title
    // would be folded into the project's state.json by the next event.
    const bait = { ...(JSON.parse(readFileSync(project, "utf8")) as Record<string, unknown>), title: "SECRET-FROM-OUTSIDE" };
    mkdirSync(join(h.outside, sessionKey));
    writeFileSync(join(h.outside, sessionKey, "state.json"), JSON.stringify(bait));
    const before = outsideState(h);
    const { swaps, runs } = await race(h, join(runtimeOf(h.project), "live"));
    expect(swaps).toBeGreaterThan(100);
    expect(runs).toBeGreaterThan(10);
    expect(outsideState(h)).toEqual(before);
    expect(readFileSync(project, "utf8")).not.toContain("SECRET-FROM-OUTSIDE");
  }, 30_000);

  test("the session folder swapped to a folder outside: nothing is written outside", async () => {
    const h = hostileProject();
    const sessionKey = startSession(h);
    const before = outsideState(h);
    const { swaps, runs } = await race(h, join(runtimeOf(h.project), "live", sessionKey));
    expect(swaps).toBeGreaterThan(100);
    expect(runs).toBeGreaterThan(10);
    expect(outsideState(h)).toEqual(before);
  }, 30_000);
});
