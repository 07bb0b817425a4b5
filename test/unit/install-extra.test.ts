import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { guardSpecs } from "../../src/install/guards.ts";
import { runInstall, runUninstall, type InstallRequest } from "../../src/install/install.ts";
import { catalogEntry } from "../../src/kit/catalog.ts";
import { cleanupTemp, tempDir } from "../helpers.ts";

afterAll(cleanupTemp);

// A kept guard is regenerated from the catalogue on reinstall, so the spec given is the catalogue's own.
const GUARD = guardSpecs("claude", [catalogEntry("verify-claims")!], null)[0]!;

describe("extra handler specs (optional guard hooks, --with=)", () => {
  test("added when given, kept by a plain reinstall, dropped when another choice is given, removed by uninstall", () => {
    const home = tempDir("aioson-home-");
    const env = { HOME: home, CLAUDE_CONFIG_DIR: join(home, "claude") };
    const base: InstallRequest = { dir: home, cwd: home, tool: "claude", explicitAgent: null, guard: true, dryRun: false, env };
    const stops = () => JSON.parse(readFileSync(join(home, "claude", "settings.json"), "utf8")).hooks.Stop.map((g: { hooks: { command: string }[] }) => g.hooks[0]!.command);

    runInstall({ ...base, extra: { claude: [GUARD] } });
    expect(stops()).toEqual([expect.stringContaining("--then=agent:done"), GUARD.command]);
    const reinstall = runInstall(base);
    expect(reinstall.result.results[0]!.changed).toBe(false);
    expect(stops()).toContain(GUARD.command);
    runInstall({ ...base, extra: {} });
    expect(stops()).not.toContain(GUARD.command);
    runInstall({ ...base, extra: { claude: [GUARD] } });
    runUninstall({ dir: home, cwd: home, tool: "claude", agent: "dev", dryRun: false, env });
    expect(() => readFileSync(join(home, "claude", "settings.json"))).toThrow();
  });
});
