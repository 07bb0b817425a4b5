/**
 * GitHub Copilot CLI 1.0.102 and the installer: aioson's handlers in a `.github/hooks/aioson.json` that already held a
 * handler of the team's, a session where both run, `hooks:doctor` on that install, and `hooks:uninstall` giving back
 * the file's bytes — after which Copilot runs the team's handler and aioson records nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CopilotBench } from "./bench.ts";

const TEAM_FILE = `{\n\t"version": 1,\n\t"hooks": {\n\t\t"PostToolUse": [\n\t\t\t{ "type": "command", "bash": "echo team-hook >> \\"$HOME/team-hook.log\\"", "timeoutSec": 5 }\n\t\t]\n\t}\n}\n`;

let bench: CopilotBench;
let doctor: { code: number | null; issues: Array<{ code: string; severity: string }> };
let removal: string;
let before: number;

beforeAll(async () => {
  bench = await CopilotBench.create({ files: { ".github/hooks/aioson.json": TEAM_FILE, "src/.keep": "" }, guards: ["all"] });
  const write = (name: string) => ({ tools: [{ name: "create", input: { path: join(bench.project, "src", name), file_text: "export {};\n" } }] });
  await bench.run({ prompt: "write one", script: { turns: [write("one.ts"), { text: "Wrote src/one.ts." }] } });
  const run = await bench.aioson(["hooks:doctor", "--tool=copilot", "--json"]);
  doctor = { code: run.code, issues: (JSON.parse(run.stdout) as { issues: Array<{ code: string; severity: string }> }).issues };
  removal = (await bench.aioson(["hooks:uninstall", "--tool=copilot"])).stdout;
  before = bench.events().length;
  await bench.run({ prompt: "write two", script: { turns: [write("two.ts"), { text: "Wrote src/two.ts." }] } });
});

afterAll(() => bench?.stop());

describe("GitHub Copilot CLI 1.0.102: install, doctor, uninstall", () => {
  test("installed: aioson's hooks and the team's handler both ran", () => {
    expect(bench.events("event_type = 'artifact'").map((row) => row.payload.file)).toEqual(["src/one.ts"]);
    expect(readFileSync(join(bench.world.home, "team-hook.log"), "utf8")).toStartWith("team-hook\n");
  });

  test("hooks:doctor on this install finds nothing wrong, and says what -p runs need", () => {
    expect(doctor.code).toBe(0);
    expect(doctor.issues.filter((issue) => issue.severity === "error")).toEqual([]);
    expect(doctor.issues.map((issue) => issue.code)).toContain("copilot_cli_trust");
  });

  test("uninstalled: the file is the team's bytes again; Copilot runs their handler and aioson records nothing", () => {
    expect(removal).toContain("✓ GitHub Copilot (VS Code, Copilot CLI) hooks removed — ");
    expect(readFileSync(bench.hooksFile, "utf8")).toBe(TEAM_FILE);
    expect(bench.events().length).toBe(before);
    expect(readFileSync(join(bench.world.home, "team-hook.log"), "utf8")).toBe("team-hook\nteam-hook\n");
  });
});
