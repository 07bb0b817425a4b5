/**
 * What hooks:emit --source=opencode does with the OpenCode plugin's own quirks, through the real binary: prompts
 * `opencode run` wrapped in double quotes activate like the prompt the user typed, and the count of events the
 * plugin's full queue dropped lands in the project's hook log.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTemp, tempProject } from "../helpers.ts";
import { emit, events, hookLog, payloadOf, storeExists } from "./helpers.ts";

afterAll(cleanupTemp);

const OPENCODE = ["--source=opencode", "--agent=dev"];

function prompt(text: string) {
  return { hook_event_name: "UserPromptSubmit", session_id: "ses_q", prompt: text };
}

describe("hooks:emit --source=opencode", () => {
  const cases: Array<[label: string, text: string, agent: string | null]> = [
    ["opencode run \"/dev fix it\" (the wrapped argument)", '"/dev fix it"', "dev"],
    ["the same prompt unquoted (TUI, or words as separate arguments)", "/dev fix it", "dev"],
    ["a wrapped @agent", '"@qa check the cart"', "qa"],
    ["a wrapped multi-line prompt", '"/tester add cases\nfor the cart"', "tester"],
    ["a wrapped prompt with surrounding blanks", '  "/dev fix it"\n', "dev"],
    ["quotes inside stay: only the first word is quoted", '"/dev" fix it', null],
    ["only one pair is ignored", '""/dev fix it""', null],
    ["single quotes are not opencode run's", "'/dev fix it'", null],
    ["an opening quote alone", '"/dev fix it', null],
    ["a wrapped non-agent command", '"/compact now"', null],
    ["a wrapped plain prompt", '"fix the cart"', null],
  ];
  for (const [label, text, agent] of cases) {
    test(`activation: ${label}`, () => {
      const project = tempProject();
      const run = emit(project, prompt(text), OPENCODE);
      expect(run.code).toBe(0);
      if (agent === null) {
        expect(run.result).toMatchObject({ ok: true, skipped: true });
        expect(storeExists(project)).toBe(false);
        return;
      }
      const activations = events(project).filter((row) => row.event_type === "agent_activated");
      expect(activations).toHaveLength(1);
      expect(payloadOf(activations[0])).toMatchObject({ agent, via: "prompt" });
      // The prompt itself is never stored (spec 4.9).
      expect(events(project).some((row) => (row.payload_json ?? "").includes("fix it"))).toBe(false);
    });
  }

  test("the quote quirk is OpenCode's only: a wrapped prompt from another harness activates nothing", () => {
    const project = tempProject();
    expect(emit(project, prompt('"/dev fix it"'), ["--source=claude"]).result).toMatchObject({ ok: true, skipped: true });
  });

  test("the plugin's dropped count goes to the hook log; the event it rides on is recorded as usual", () => {
    const project = tempProject();
    const payload = { hook_event_name: "PostToolUse", session_id: "ses_d", tool_name: "Write", tool_input: { file_path: "a.ts" }, cwd: project };
    expect(emit(project, { ...payload, aioson_dropped: 13 }, OPENCODE).code).toBe(0);
    expect(emit(project, { ...payload, aioson_dropped: 1 }, OPENCODE).code).toBe(0);
    const lines = hookLog(project).trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/ hooks:emit OpenCode plugin: 13 events dropped, its queue was full/);
    expect(lines[1]).toMatch(/ hooks:emit OpenCode plugin: 1 event dropped, its queue was full/);
    expect(events(project).filter((row) => row.event_type === "artifact").map((row) => row.message)).toEqual(["Write: a.ts", "Write: a.ts"]);
  });

  test("a count that is not a positive whole number, or one from another harness, is no hook-log line", () => {
    const project = tempProject();
    const payload = { hook_event_name: "PostToolUse", session_id: "ses_d", tool_name: "Write", tool_input: { file_path: "a.ts" }, cwd: project };
    for (const bad of [0, -3, 1.5, "13", null, true, 1e12, [4], { n: 2 }]) expect(emit(project, { ...payload, aioson_dropped: bad }, OPENCODE).code).toBe(0);
    expect(emit(project, { ...payload, aioson_dropped: 5 }, ["--source=claude"]).code).toBe(0);
    expect(hookLog(project)).toBe("");
    expect(events(project).filter((row) => row.event_type === "artifact")).toHaveLength(10);
  });
});
