import { describe, expect, test } from "bun:test";
import { agentOption, canonicalAgent } from "../../src/core/agent.ts";

describe("agent names (spec 0.2)", () => {
  test("normalise, map legacy ids, pass unknown names through", () => {
    expect(canonicalAgent(" @Dev ")).toBe("dev");
    expect(canonicalAgent("briefing-refiner")).toBe("refiner");
    expect(canonicalAgent("pair")).toBe("deyvin");
    expect(canonicalAgent("my-squad-agent")).toBe("my-squad-agent");
  });

  test("names of built-in object properties are ordinary names", () => {
    expect(canonicalAgent("constructor")).toBe("constructor");
    expect(canonicalAgent("toString")).toBe("tostring");
  });

  test("--agent values: quotes from cmd.exe stripped, invalid ids fall back to dev", () => {
    expect(agentOption("'qa'")).toBe("qa");
    expect(agentOption('"@QA"')).toBe("qa");
    expect(agentOption("not valid!")).toBe("dev");
    expect(agentOption(undefined)).toBe("dev");
  });
});
