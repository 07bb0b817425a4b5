import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTemp, runAioson } from "./helpers.ts";

afterAll(cleanupTemp);

describe("cli", () => {
  test("--version prints the version and the commit it was built from", () => {
    const run = runAioson(["--version"]);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toMatch(/^aioson \d+\.\d+\.\d+\S* \(\S+\)$/);
  });

  test("--help lists commands grouped by area", () => {
    const run = runAioson(["--help"]);
    expect(run.code).toBe(0);
    for (const heading of ["Hooks:", "Context:", "Sessions:", "Runtime:"]) expect(run.stdout).toContain(heading);
    expect(run.stdout).toContain("hooks:emit");
  });

  test("an unknown command is a clear error", () => {
    const run = runAioson(["no-such-command"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Unknown command: no-such-command");
  });
});
