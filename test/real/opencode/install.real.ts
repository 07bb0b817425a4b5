/**
 * OpenCode 1.18.33 and the installer: the plugin next to a user's own plugin, `hooks:doctor` on that install, and
 * `hooks:uninstall --tool=opencode` removing `aioson.js` only — after which OpenCode runs the user's plugin and
 * records nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { OpencodeRun } from "../lib/drivers/opencode.ts";
import { OpencodeBench } from "./bench.ts";

let bench: OpencodeBench;
let installed: OpencodeRun;
let uninstalled: OpencodeRun;
let doctor: { code: number | null; report: { ok: boolean; issues: unknown[] } };
let removal: string;
let configBefore: string;
let userLogInstalled: string;
const USER_PLUGIN = (log: string) => `import { appendFileSync } from "node:fs";\nexport const UserPlugin = async () => ({ "tool.execute.after": async (input) => { appendFileSync(${JSON.stringify(log)}, input.tool + "\\n"); } });\n`;

beforeAll(async () => {
  bench = await OpencodeBench.create({ guards: ["pre-commit-guard"] });
  const log = join(bench.world.root, "user-plugin.log");
  writeFileSync(join(bench.configDir, "plugins", "user.js"), USER_PLUGIN(log));
  configBefore = readFileSync(join(bench.configDir, "opencode.json"), "utf8");
  const write = (name: string) => ({ turns: [{ tools: [{ name: "write", input: { filePath: `src/${name}.ts`, content: "export {};\n" } }] }, { text: `Wrote src/${name}.ts.` }] });
  installed = await bench.run({ message: ["write one"], script: write("one") });
  userLogInstalled = readFileSync(log, "utf8");
  const run = await bench.aioson(["hooks:doctor", "--tool=opencode", "--json"]);
  doctor = { code: run.code, report: JSON.parse(run.stdout) as { ok: boolean; issues: unknown[] } };
  removal = (await bench.aioson(["hooks:uninstall", "--tool=opencode"])).stdout;
  uninstalled = await bench.run({ message: ["write two"], script: write("two") });
});

afterAll(() => bench?.stop());

describe("OpenCode 1.18.33: install, doctor, uninstall", () => {
  test("installed: aioson's plugin and the user's own plugin both ran", () => {
    expect(bench.events("harness_session_id = ? AND event_type = 'artifact'", installed.sessionId).map((row) => row.message)).toEqual(["Write: src/one.ts"]);
    expect(userLogInstalled).toBe("write\n");
  });

  test("hooks:doctor on this install says all is well", () => {
    expect({ code: doctor.code, ok: doctor.report.ok, issues: doctor.report.issues }).toEqual({ code: 0, ok: true, issues: [] });
  });

  test("uninstalled: only aioson.js is gone; OpenCode runs the user's plugin and records nothing", () => {
    expect(removal).toContain(bench.pluginPath);
    expect(existsSync(bench.pluginPath)).toBe(false);
    expect(readdirSync(join(bench.configDir, "plugins"))).toEqual(["user.js"]);
    expect(readFileSync(join(bench.configDir, "opencode.json"), "utf8")).toBe(configBefore);
    expect(bench.events("harness_session_id = ?", uninstalled.sessionId)).toEqual([]);
    expect(readFileSync(join(bench.world.root, "user-plugin.log"), "utf8")).toBe("write\nwrite\n");
  });
});
