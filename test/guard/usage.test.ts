import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { closeStore, openStore } from "../../src/store/db.ts";
import { insertStandaloneEvent } from "../../src/store/records.ts";
import { cleanupTemp, runAioson, tempProject } from "../helpers.ts";
import { fixtureProject, guard, write, writeFiles } from "./fixture.ts";

afterAll(cleanupTemp);

const NAMING = ".aioson/rules/source-code-language-convention.md";

function withStore(project: string): string {
  const store = openStore(project);
  if (store) closeStore(store);
  return project;
}

function usage(project: string, args: string[] = []) {
  return runAioson(["context:usage", project, ...args]);
}

/** One injection with one measured violation on src/x.js, nothing on disk yet. */
function injected(): string {
  const project = withStore(fixtureProject());
  const run = guard(project, write(join(project, "src/x.js"), "export function salvarPedido() {}\n"));
  expect(run.rules).toEqual([NAMING]);
  return project;
}

describe("context:usage guard re-check", () => {
  test("the agent renamed the function: fixed", () => {
    const project = injected();
    writeFiles(project, { "src/x.js": "export function saveOrder() {}\n" });
    const run = usage(project);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Guard at write time: 1 injection — measured violations fixed 1, still present 0, file gone 0.\n");
    expect(run.stdout).toContain(`- ${NAMING}: injected 1 · violations fixed 1 / still present 0\n`);
  });

  test("the agent wrote it anyway: still present", () => {
    const project = injected();
    writeFiles(project, { "src/x.js": "export function salvarPedido() {}\nexport const other = 1;\n" });
    const run = usage(project);
    expect(run.stdout).toContain("measured violations fixed 0, still present 1, file gone 0.");
    expect(run.stdout).toContain(`- ${NAMING}: injected 1 · violations fixed 0 / still present 1\n`);
  });

  test("the file never landed: file gone, and the rule line says so", () => {
    const project = injected();
    const run = usage(project);
    expect(run.stdout).toContain("measured violations fixed 0, still present 0, file gone 1.");
    expect(run.stdout).toContain(`- ${NAMING}: injected 1 · violations fixed 0 / still present 0 / file gone 1\n`);
  });

  test("a plan that still cites the wrong name after the file was created with it: still present", () => {
    const project = withStore(fixtureProject());
    const plan = ".aioson/context/implementation-plan-x.md";
    const text = "# Plan\n\n1. Add `src/modulos/clientes/servicoCliente.js`.\n";
    expect(guard(project, write(join(project, plan), text), ["--agent=planner"]).rules).toEqual([NAMING]);
    writeFiles(project, { [plan]: text, "src/modulos/clientes/servicoCliente.js": "export const x = 1;\n" });
    expect(usage(project).stdout).toContain("measured violations fixed 0, still present 1, file gone 0.");
    writeFiles(project, { [plan]: "# Plan\n\n1. Add `src/modules/customers/customerService.js`.\n" });
    expect(usage(project).stdout).toContain("measured violations fixed 1, still present 0, file gone 0.");
  });

  test("rules are listed by injections, then path; the JSON report carries the same numbers", () => {
    const project = withStore(fixtureProject());
    const pricing = write(join(project, "src/services/pricing.js"), "export function totalPrice(items) {\n  return items.reduce((s, i) => s + i.price * i.amount, 0);\n}\n");
    guard(project, pricing, ["--no-jev"]);
    guard(project, pricing, ["--no-jev"]);
    guard(project, write(join(project, "src/x.js"), "export function salvarPedido() {}\n"));
    writeFiles(project, { "src/x.js": "export function salvarPedido() {}\n" });
    const run = usage(project);
    const lines = run.stdout.split("\n");
    const header = lines.findIndex((l) => l.startsWith("Guard at write time:"));
    expect(lines[header]).toBe("Guard at write time: 3 injections — measured violations fixed 0, still present 1, file gone 0.");
    expect(lines[header + 1]).toBe("- .aioson/rules/money-values.md: injected 2 · violations fixed 0 / still present 0");
    expect(lines[header + 2]).toBe(`- ${NAMING}: injected 1 · violations fixed 0 / still present 1`);
    const json = runAioson(["context:usage", project, "--json"]).json as { guard: unknown };
    expect(json.guard).toEqual({
      available: true,
      since_days: 30,
      totals: { injections: 3, violations_fixed: 0, violations_still_present: 1, violations_file_gone: 0 },
      rules: [
        { path: ".aioson/rules/money-values.md", injections: 2, with_violations: 0, fixed: 0, still_present: 0, file_gone: 0 },
        { path: NAMING, injections: 1, with_violations: 1, fixed: 0, still_present: 1, file_gone: 0 },
      ],
    });
  });

  test("rows older than --since are left out; a non-numeric --since means 30 days", () => {
    const project = injected();
    rmSync(join(project, "src", "x.js"), { force: true });
    const store = openStore(project);
    if (!store) throw new Error("no store");
    insertStandaloneEvent(store.db, {
      source: "context_guard",
      eventType: "guard_injected",
      agentName: "dev",
      payload: { file: "src/old.js", rules: [NAMING], violations: [] },
      at: new Date(Date.now() - 10 * 86_400_000).toISOString(),
    });
    closeStore(store);
    expect(usage(project, ["--since=5"]).stdout).toContain("Guard at write time: 1 injection —");
    expect(usage(project, ["--since=abc"]).stdout).toContain("Guard at write time: 2 injections —");
    expect(usage(project, ["--since=abc"]).stdout).toContain("Context usage (last 30 days): 0 brief(s) · 0 load(s) · 0 session end(s).");
  });

  test("no store: nothing recorded, exit 0, nothing created", () => {
    const project = tempProject();
    const run = usage(project);
    expect(run.code).toBe(0);
    expect(run.stdout).toStartWith("Context usage: no runtime store yet — nothing recorded. Run `aioson runtime:init .`;");
    const json = runAioson(["context:usage", project, "--json"]).json as { guard: { available: boolean } };
    expect(json.guard.available).toBe(false);
    expect(runAioson(["context:usage", project]).stdout).not.toContain("Guard at write time");
    expect(existsSync(join(project, ".aioson", "runtime"))).toBe(false);
  });
});

describe("context:usage with a damaged store", () => {
  test("a store that is not SQLite is reported, exit 0", () => {
    const project = tempProject({ ".aioson/runtime/aios.sqlite": "this is not a database" });
    const run = usage(project);
    expect(run.code).toBe(0);
    expect(run.stdout).toStartWith("Context usage: the runtime store could not be read (");
  });
});
