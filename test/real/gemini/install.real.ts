/**
 * Gemini CLI 0.61.0 and the installer: aioson's groups next to a user's own hook in `~/.gemini/settings.json`, a
 * session where both run, `hooks:doctor` on that install, and `hooks:uninstall` giving back the user's bytes — after
 * which Gemini runs the user's hook and aioson records nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { GeminiBench } from "./bench.ts";

const USER_SETTINGS = `{
    "security": { "auth": { "selectedType": "gemini-api-key" } },
    "privacy": { "usageStatisticsEnabled": false },
    "telemetry": { "enabled": false },
    "hooks": {
        "AfterTool": [
            { "matcher": "write_file", "hooks": [ { "type": "command", "name": "mine", "command": "echo user-hook >> \\"$HOME/user-hook.log\\"" } ] }
        ]
    }
}`;

let bench: GeminiBench;
let doctor: { code: number | null; issues: Array<{ code: string; severity: string }> };
let removal: string;
let before: number;

beforeAll(async () => {
  bench = await GeminiBench.create({ userSettings: USER_SETTINGS, guards: ["all"] });
  const write = (name: string) => ({ tools: [{ name: "write_file", input: { file_path: join(bench.project, "src", name), content: "export {};\n" } }] });
  await bench.run({ prompt: "write one", script: { turns: [write("one.ts"), { text: "Wrote src/one.ts." }] } });
  const run = await bench.aioson(["hooks:doctor", "--tool=gemini", "--json"]);
  doctor = { code: run.code, issues: (JSON.parse(run.stdout) as { issues: Array<{ code: string; severity: string }> }).issues };
  removal = (await bench.aioson(["hooks:uninstall", "--tool=gemini"])).stdout;
  before = bench.events().length;
  await bench.run({ prompt: "write two", script: { turns: [write("two.ts"), { text: "Wrote src/two.ts." }] } });
});

afterAll(() => bench?.stop());

describe("Gemini CLI 0.61.0: install, doctor, uninstall", () => {
  test("installed: aioson's hooks and the user's own hook both ran", () => {
    expect(bench.events("event_type = 'artifact'").map((row) => row.payload.file)).toEqual(["src/one.ts"]);
    expect(readFileSync(join(bench.world.home, "user-hook.log"), "utf8")).toStartWith("user-hook\n");
  });

  test("hooks:doctor on this install finds nothing wrong (this world's folder trust comes from the harness's environment)", () => {
    expect(doctor.code).toBe(0);
    expect(doctor.issues.filter((issue) => issue.severity === "error")).toEqual([]);
  });

  test("uninstalled: settings.json is the user's bytes again; Gemini runs the user's hook and aioson records nothing", () => {
    expect(removal).toContain("✓ Gemini CLI hooks removed — ");
    expect(readFileSync(bench.settingsPath, "utf8")).toBe(USER_SETTINGS);
    expect(bench.events().length).toBe(before);
    expect(existsSync(join(bench.project, "src", "two.ts"))).toBe(true);
    expect(readFileSync(join(bench.world.home, "user-hook.log"), "utf8")).toBe("user-hook\nuser-hook\n");
  });
});
