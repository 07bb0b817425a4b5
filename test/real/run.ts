/**
 * `npm run test:real [-- <harness>…]`: the real-harness bench. Installs each pinned harness into the cache (once;
 * test/real/lib/install.ts), then runs its scenario files (`test/real/<harness>/*.real.ts`, a name `bun test`'s
 * default scan never picks up) with `bun test`, one harness after another. Exit status: non-zero when an
 * install or a scenario failed.
 */
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ensureInstalled } from "./lib/install.ts";
import { pins } from "./lib/pins.ts";
import { newRunToken, sweep } from "./lib/processes.ts";
import { worldsRoot } from "./lib/project.ts";

const HERE = import.meta.dir;
/** Per scenario test: a claude -p run on a loaded 2-core machine is seconds, a compaction more; never a flake. */
const TEST_TIMEOUT_MS = 600_000;

function scenarioFiles(harness: string): string[] {
  const dir = join(HERE, harness);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith(".real.ts"))
    .sort()
    .map((name) => join(dir, name));
}

function selected(argv: readonly string[]): string[] {
  const known = Object.keys(pins());
  const asked = argv.filter((arg) => !arg.startsWith("-"));
  const unknown = asked.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    console.error(`Unknown harness: ${unknown.join(", ")} — pinned: ${known.join(", ")}`);
    process.exit(2);
  }
  // Without names: every pinned harness that has scenarios.
  return asked.length > 0 ? asked : known.filter((name) => scenarioFiles(name).length > 0);
}

/** What the scenario processes left behind, if one died before its own cleanup: its processes and its worlds. */
function cleanup(token: string): void {
  sweep(token);
  rmSync(worldsRoot(token), { recursive: true, force: true });
}

const started = Date.now();
const harnesses = selected(process.argv.slice(2));
const token = newRunToken();
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    cleanup(token);
    process.exit(130);
  });
}
let failed = false;
for (const harness of harnesses) {
  const files = scenarioFiles(harness);
  if (files.length === 0) {
    console.log(`${harness}: no scenarios (test/real/${harness}/*.real.ts)`);
    continue;
  }
  const t0 = Date.now();
  try {
    const installed = ensureInstalled(harness, (line) => console.log(line));
    console.log(`${harness} ${installed.version}: ready in ${((Date.now() - t0) / 1000).toFixed(1)} s (${installed.dir})`);
  } catch (error) {
    console.error(`${harness}: install failed: ${error instanceof Error ? error.message : String(error)}`);
    failed = true;
    continue;
  }
  const run = Bun.spawn([process.execPath, "test", `--timeout=${TEST_TIMEOUT_MS}`, ...files], {
    stdio: ["inherit", "inherit", "inherit"],
    env: { ...process.env, AIOSON_REAL_RUN_TOKEN: token },
  });
  if ((await run.exited) !== 0) failed = true;
  cleanup(token);
}
console.log(`real-harness bench: ${harnesses.join(", ") || "nothing"} in ${((Date.now() - started) / 1000).toFixed(1)} s — ${failed ? "FAILED" : "ok"}`);
process.exit(failed ? 1 : 0);
