import { describe, expect, test } from "bun:test";
import { markStepDone, parsePlanSteps, stepKey } from "../../src/live/plan.ts";

describe("parsePlanSteps", () => {
  test("steps blocks: ID: title lines, bullets allowed, other lines ignored", () => {
    const text = "<!-- aioson:steps\n- FASE-1: Setup\n  FASE-2 : Build it\nnot a step\n-->\nRF-9: outside the block";
    expect(parsePlanSteps(text)).toEqual([
      { id: "FASE-1", title: "Setup", done: false },
      { id: "FASE-2", title: "Build it", done: false },
    ]);
  });

  test("headings ### to ###### named ABC-12[.3] or Fase N[.M] with - or : and a title", () => {
    const text = [
      "## RF-1 - too shallow",
      "### RF-01 - Login",
      "###### ab-2.3: Deep one",
      "#### Fase 3 - Deploy ###",
      "### fase 3.1: Smoke",
      "### Overview",
      "### RF-02 without separator",
      "####### RF-03 - too deep",
    ].join("\r\n");
    expect(parsePlanSteps(text)).toEqual([
      { id: "RF-01", title: "Login", done: false },
      { id: "ab-2.3", title: "Deep one", done: false },
      { id: "Fase 3", title: "Deploy", done: false },
      { id: "fase 3.1", title: "Smoke", done: false },
    ]);
  });

  test("de-duplicated by id, case-insensitively, in document order", () => {
    const text = "### RF-02 - Second\n<!-- aioson:steps\nRF-01: First\nrf-02: Again\n-->\n### Rf-01 - Again";
    expect(parsePlanSteps(text).map((step) => step.id)).toEqual(["RF-02", "RF-01"]);
  });

  test("no steps", () => {
    expect(parsePlanSteps("# Just a title\nSome text.")).toEqual([]);
  });
});

describe("step ids", () => {
  test("compared case-insensitively with whitespace collapsed", () => {
    expect(stepKey("  Fase   1 ")).toBe(stepKey("fase 1"));
    const steps = [
      { id: "Fase 1", title: "A", done: false },
      { id: "Fase 2", title: "B", done: false },
    ];
    expect(markStepDone(steps, "FASE\t1")).toEqual([
      { id: "Fase 1", title: "A", done: true },
      { id: "Fase 2", title: "B", done: false },
    ]);
    expect(markStepDone(steps, "Fase 3")).toBeNull();
  });
});
