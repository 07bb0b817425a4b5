/**
 * No hook call can load the output of the commands people read (consola, src/human/), nor import at start a Node
 * built-in beyond node:fs and node:path: the bundle's chunk graph, as scripts/hook-modules.ts reads it, for every
 * command src/cli.ts marks `hook: true`.
 */
import { describe, expect, test } from "bun:test";
import { commandEntries, hookCommands, hookModules } from "../scripts/hook-modules.ts";

describe("hook modules", () => {
  test("every hook-facing command is marked in the command table", () => {
    const names = hookCommands().map((entry) => entry.name);
    for (const name of ["hooks:emit", "hooks:recap", "context:guard", "guard:pre-commit-guard", "guard:stop-guards", "guard:subagent-audit"]) expect(names).toContain(name);
    expect(names).not.toContain("hooks:install");
  });

  test("none of them can reach consola or src/human/, while a person's command does", async () => {
    const loads = await hookModules();
    expect(loads.length).toBe(hookCommands().length);
    for (const load of loads) {
      expect(load.modules).toContain(load.command === "hooks:emit" ? "src/emit/pipeline.ts" : "src/cli.ts");
      expect({ command: load.command, forbidden: load.forbidden }).toEqual({ command: load.command, forbidden: [] });
    }
    // The check sees consola where it is: the commands people read load it.
    const people = await hookModules(commandEntries().filter((entry) => ["hooks:install", "hooks:doctor", "live:status"].includes(entry.name)));
    for (const load of people) expect(load.forbidden).toContain("node_modules/consola/dist/core.mjs");
  });

  test("none of them imports a Node built-in other than node:fs and node:path at start, while an installer does", async () => {
    for (const load of await hookModules()) expect({ command: load.command, startBuiltins: load.startBuiltins }).toEqual({ command: load.command, startBuiltins: [] });
    // The check sees a built-in where it is: the installer loads node:os at start (it writes into HOME).
    const [install] = await hookModules(commandEntries().filter((entry) => entry.name === "hooks:install"));
    expect(install?.startBuiltins).toContain("node:os");
  });
});
