/**
 * OpenCode 1.18.33 never breaks because of aioson: with aioson missing from PATH, and with an aioson that hangs
 * (every call killed by the plugin after its 15 s limit), `opencode run` finishes its turn, runs every tool —
 * including the git commit pre-commit-guard could not judge — and exits by itself.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { OpencodeRun } from "../lib/drivers/opencode.ts";
import { OpencodeBench } from "./bench.ts";

const SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin";

let bench: OpencodeBench;
let missing: OpencodeRun;
let hanging: OpencodeRun;
let hangStarts: string[] = [];

const session = (name: string) => ({
  turns: [
    { tools: [{ name: "write", input: { filePath: `${name}.txt`, content: "x\n" } }] },
    { tools: [{ id: `call_${name}_commit`, name: "bash", input: { command: `git add -A && git commit -q -m "feat: ${name}"`, description: "Commit" } }] },
    { text: `Committed ${name}.txt.` },
  ],
});

beforeAll(async () => {
  bench = await OpencodeBench.create({ git: true, guards: ["pre-commit-guard"], files: { ".gitignore": ".aioson/runtime/\n" } });
  expect(Bun.which("aioson", { PATH: SYSTEM_PATH })).toBeNull();
  missing = await bench.run({ message: ["/dev commit missing"], env: { PATH: SYSTEM_PATH }, script: session("missing") });
  const log = join(bench.world.root, "hang.starts");
  const hang = join(bench.world.bin, "hang.sh");
  writeFileSync(hang, `#!/bin/sh\necho "$1" >> "${log}"\nexec sleep 600\n`);
  chmodSync(hang, 0o755);
  hanging = await bench.run({ message: ["/dev commit hanging"], env: { AIOSON_BIN: hang }, script: session("hanging") });
  hangStarts = existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : [];
});

afterAll(() => bench?.stop());

describe("OpenCode 1.18.33 without a working aioson", () => {
  test("aioson missing from PATH: the turn ran to its answer, the commit happened, nothing was stored", () => {
    expect(missing.events.some((event) => event.type === "text" && JSON.stringify(event).includes("Committed missing.txt."))).toBe(true);
    const log = Bun.spawnSync(["git", "log", "--format=%s"], { cwd: bench.project }).stdout.toString();
    expect(log).toContain("feat: missing");
    expect(bench.events("harness_session_id = ?", missing.sessionId)).toEqual([]);
  });

  test("aioson hanging: the turn ran to its answer and OpenCode exited by itself; the plugin gave its queue up at exit", () => {
    expect(hanging.events.some((event) => event.type === "text" && JSON.stringify(event).includes("Committed hanging.txt."))).toBe(true);
    const log = Bun.spawnSync(["git", "log", "--format=%s"], { cwd: bench.project }).stdout.toString();
    expect(log).toContain("feat: hanging");
    // The guard call, then at most the two queued calls that started before and during dispose() (each killed at 15 s).
    expect(hangStarts.filter((command) => command === "guard:pre-commit-guard")).toEqual(["guard:pre-commit-guard"]);
    expect(hangStarts.filter((command) => command === "hooks:emit").length).toBeLessThanOrEqual(3);
    console.log(`[bench] hanging aioson: opencode run took ${(hanging.result.ms / 1000).toFixed(1)} s (${hangStarts.length} calls started, each killed after 15 s)`);
  });
});
