/**
 * Claude Code 2.1.328 and the installer: every guard installed next to a user's own hook, a session where both
 * run, `hooks:doctor` on that install, and `hooks:uninstall` giving back the user's settings.json byte for byte —
 * after which Claude runs the user's hook and none of aioson's.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ClaudeRun } from "../lib/drivers/claude.ts";
import { ClaudeBench, ran, readIfExists } from "./bench.ts";

// Hand-written: four-space indentation, a key order of its own, no final newline.
const USER_SETTINGS = `{
    "model": "opus",
    "hooks": {
        "PostToolUse": [
            { "matcher": "Write", "hooks": [ { "type": "command", "command": "echo user-hook >> \\"$HOME/user-hook.log\\"" } ] }
        ]
    },
    "permissions": { "allow": [] }
}`;

let bench: ClaudeBench;
let installed: ClaudeRun;
let uninstalled: ClaudeRun;
let doctor: { code: number | null; report: { ok: boolean; issues: unknown[] } };
let removal: string;

beforeAll(async () => {
  bench = await ClaudeBench.create({ userSettings: USER_SETTINGS, guards: ["all"], git: true });
  const write = (name: string) => ({ tools: [{ name: "Write", input: { file_path: join(bench.project, "src", name), content: "export {};\n" } }] });
  installed = await bench.run({ prompt: "write one", script: { turns: [write("one.ts"), { text: "Wrote src/one.ts." }] } });
  const run = await bench.aioson(["hooks:doctor", "--json"]);
  doctor = { code: run.code, report: JSON.parse(run.stdout) as { ok: boolean; issues: unknown[] } };
  removal = (await bench.aioson(["hooks:uninstall", "--tool=claude"])).stdout;
  uninstalled = await bench.run({ prompt: "write two", script: { turns: [write("two.ts"), { text: "Wrote src/two.ts." }] } });
});

afterAll(() => bench?.stop());

describe("Claude Code 2.1.328: install, doctor, uninstall", () => {
  test("installed: aioson's hooks and the user's own hook both ran", () => {
    ran(installed, "PostToolUse", "hooks:emit", "Write");
    ran(installed, "PostToolUse", "user-hook", "Write");
    ran(installed, "SessionStart", "guard:session-context", "startup");
    ran(installed, "UserPromptSubmit", "guard:lesson-injector");
  });

  test("hooks:doctor on this install says all is well", () => {
    expect({ code: doctor.code, ok: doctor.report.ok, issues: doctor.report.issues }).toEqual({ code: 0, ok: true, issues: [] });
  });

  test("uninstalled: settings.json is the user's bytes again; Claude runs the user's hook and none of aioson's", () => {
    expect(removal).toContain("✓ Claude Code hooks removed — ");
    expect(readFileSync(bench.settingsPath, "utf8")).toBe(USER_SETTINGS);
    ran(uninstalled, "PostToolUse", "user-hook", "Write");
    expect(uninstalled.hooks.filter((hook) => hook.command.includes("aioson"))).toEqual([]);
    expect(readIfExists(join(bench.world.home, "user-hook.log"))).toBe("user-hook\nuser-hook\n");
  });
});
