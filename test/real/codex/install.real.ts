/**
 * Codex CLI 0.169.0 and the installer: aioson's hooks next to a user's hand-written hooks.json, a session where both
 * run, hooks:doctor on that install (everything runs; trust not yet reviewed), and hooks:uninstall giving the user's
 * bytes back — after which Codex runs the user's hook and none of aioson's.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { CodexRun } from "../lib/drivers/codex.ts";
import { CodexBench, ran, readIfExists } from "./bench.ts";

let bench: CodexBench;
let userHooks: string;
let installed: CodexRun;
let uninstalled: CodexRun;
let doctor: { code: number | null; report: { ok: boolean; issues: Array<{ code: string }>; harnesses: Array<{ tool: string; handlers: Array<{ ok: boolean }> }> } };
let removal: string;

beforeAll(async () => {
  bench = await CodexBench.create({ install: false });
  const log = join(bench.world.root, "user-stop.log");
  // Hand-written: four-space indentation, its own key order, no final newline.
  userHooks = `{
    "hooks": {
        "Stop": [
            { "hooks": [ { "type": "command", "command": "echo user-stop >> \\"${log}\\"", "timeout": 5 } ] }
        ]
    }
}`;
  await Bun.write(bench.hooksPath, userHooks);
  expect((await bench.aioson(["hooks:install", "--tool=codex"])).code).toBe(0);
  installed = await bench.run({ prompt: "one", script: { turns: [{ text: "One." }] } });
  const run = await bench.aioson(["hooks:doctor", "--tool=codex", "--json"]);
  doctor = { code: run.code, report: JSON.parse(run.stdout) };
  removal = (await bench.aioson(["hooks:uninstall", "--tool=codex"])).stdout;
  uninstalled = await bench.run({ prompt: "two", script: { turns: [{ text: "Two." }] } });
});

afterAll(() => bench?.stop());

describe("Codex CLI 0.169.0: install, doctor, uninstall", () => {
  test("installed: aioson's hooks and the user's own Stop hook both ran", () => {
    ran(installed, "Stop", "hooks:emit");
    ran(installed, "UserPromptSubmit", "hooks:emit");
    expect(bench.events("harness_session_id = ? AND event_type = 'agent_message'", installed.threadId).map((row) => row.message)).toEqual(["One."]);
  });

  test("hooks:doctor runs every handler, all land; the only finding is the trust review Codex still wants", () => {
    const codex = doctor.report.harnesses.find((harness) => harness.tool === "codex");
    expect(codex?.handlers.length).toBe(6);
    expect(codex?.handlers.every((handler) => handler.ok)).toBe(true);
    expect({ code: doctor.code, ok: doctor.report.ok, issues: doctor.report.issues.map((issue) => issue.code) }).toEqual({ code: 0, ok: true, issues: ["codex_untrusted"] });
  });

  test("uninstalled: hooks.json is the user's bytes again; Codex runs the user's hook and none of aioson's", () => {
    expect(removal).toContain("✓ Codex hooks removed — ");
    expect(bench.readHooks()).toBe(userHooks);
    expect(uninstalled.hooks).toEqual([]);
    expect(readIfExists(join(bench.world.root, "user-stop.log"))).toBe("user-stop\nuser-stop\n");
  });
});
