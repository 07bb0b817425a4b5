/**
 * Golden checkpoints: realistic sessions of each harness (test/fixtures/recap/) and the adversarial
 * corpus (test/fixtures/recap-adversarial/). Each `<case>.json` is replayed into a fresh project's
 * store as hooks:emit records it, the real binary rebuilds the checkpoint, and the text must equal
 * `<case>.txt` exactly; the invariants of spec 5.7/5.8 are checked on top.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { cleanupTemp, runAioson, tempProject } from "./helpers.ts";
import { checkpointText, loadScenario, seedScenario } from "./recap-helpers.ts";

afterAll(cleanupTemp);

const FIXTURES = join(import.meta.dir, "fixtures");

/** Every line a checkpoint may contain, by its fixed beginning. */
const LINE_SHAPES: readonly RegExp[] = [
  /^\[AIOSON checkpoint\] /,
  /^Agent: @[a-z0-9][a-z0-9-]*$/,
  /^Feature: /,
  /^Next step(?: \(@dev\))?: /,
  /^Workflow stage: /,
  /^Expected from @/,
  /^Files changed since the previous compaction:$/,
  /^Still failing:$/,
  /^- /,
  /^Last test result: (?:passed|failed) — \$ /,
  /^Plan: Tasks: \d+ of \d+ done$/,
  /^Continuity notes:$/,
  /^Last agent message \(its own claim, unverified\): /,
  /^Withheld \d+ recorded item\(s\) that read like instructions to an AI\.$/,
];

const HIDDEN = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}]/u;

function assertInvariants(text: string): void {
  expect(text.length).toBeLessThanOrEqual(2000);
  expect(text.startsWith("[AIOSON checkpoint] ")).toBe(true);
  expect(text.endsWith("\n")).toBe(false);
  expect(HIDDEN.test(text)).toBe(false);
  expect(text).not.toMatch(/<[/!?]?[A-Za-z]/);
  expect(text).not.toContain("<!--");
  const lines = text.split("\n");
  for (const line of lines) {
    expect(LINE_SHAPES.some((shape) => shape.test(line))).toBe(true);
    expect(line.length).toBeLessThanOrEqual(240);
  }
  // A heading is never the last line: its items were cut, so it was dropped with them.
  expect(lines.at(-1)).not.toMatch(/:$/);
}

function cases(folder: string): string[] {
  return readdirSync(join(FIXTURES, folder))
    .filter((name) => name.endsWith(".json"))
    .map((name) => name.slice(0, -".json".length))
    .sort();
}

for (const folder of ["recap", "recap-adversarial"]) {
  describe(`golden checkpoints: ${folder}`, () => {
    for (const name of cases(folder)) {
      const scenario = loadScenario(join(FIXTURES, folder, `${name}.json`));
      test(`${name}: ${scenario.title}`, () => {
        const project = tempProject();
        seedScenario(project, scenario);
        const stdin = scenario.recap.stdin === undefined ? null : JSON.stringify(scenario.recap.stdin);
        const run = runAioson(["hooks:recap", project, ...scenario.recap.args], { stdin });
        expect(run.code).toBe(0);
        expect(run.stderr).toBe("");
        const json = scenario.recap.args.includes("--json");
        const text = checkpointText(run.stdout, json);
        expect(text).toBe(readFileSync(join(FIXTURES, folder, `${name}.txt`), "utf8"));
        assertInvariants(text);
        for (const hostile of scenario.mustNotContain ?? []) expect(text).not.toContain(hostile);
        for (const useful of scenario.mustContain ?? []) expect(text).toContain(useful);
        if (json) {
          const opencode = scenario.recap.args.includes("--source=opencode");
          const expected = opencode ? { additionalContext: text } : { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: text } };
          expect(run.json).toEqual(expected);
        } else {
          expect(run.stdout).toBe(`${text}\n`);
        }
      });
    }
  });
}
