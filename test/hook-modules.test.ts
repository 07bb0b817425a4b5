/**
 * No hook call can load the output of the commands people read (consola, src/human/): the bundle's chunk graph, as
 * scripts/hook-modules.ts reads it, for every command src/cli.ts marks `hook: true`.
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
});
