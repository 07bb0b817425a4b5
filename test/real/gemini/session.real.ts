/**
 * Gemini CLI 0.61.0 through aioson's hooks: file write and edit (and an edit that fails), a shell command that exits
 * 3, a failing test run, a plan, a sub-agent, a denied commit, a project rule reaching the model after the write, and
 * the session's end — each checked in what aioson stored and, where a hook answers, in what the model was sent.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { GeminiRun } from "../lib/drivers/gemini.ts";
import type { LoggedRequest } from "../lib/server.ts";
import { functionResponses, GeminiBench } from "./bench.ts";

const RULE = "---\nenforcement: source-code-language\n---\n## Rules\n- Write identifiers in English.\n";
const PACKAGE = JSON.stringify({ name: "shop", version: "1.0.0", scripts: { test: "node -e \"console.log('3 passing'); console.log('1 failing'); process.exit(1)\"" } });
const SUBAGENT_PROMPT = "SUBAGENT: list the files of the project";

let bench: GeminiBench;
let run: GeminiRun;
const seen: LoggedRequest[] = [];

beforeAll(async () => {
  bench = await GeminiBench.create({ files: { ".aioson/rules/naming.md": RULE, "package.json": PACKAGE }, git: true, guards: ["pre-commit-guard"] });
  const P = bench.project;
  const step = (reply: Parameters<typeof bench.server.script>[0]["turns"][number]) => (request: LoggedRequest) => {
    seen.push(request);
    return typeof reply === "function" ? reply(request, bench.server.wire) : reply;
  };
  run = await bench.run({
    prompt: "build the cart",
    script: {
      turns: [
        step({ tools: [{ name: "write_file", input: { file_path: `${P}/src/cart.js`, content: "export function salvarPedido() {}\n" } }] }),
        step({ tools: [{ name: "replace", input: { file_path: `${P}/src/cart.js`, instruction: "rename", old_string: "salvarPedido", new_string: "savePedido" } }] }),
        step({ tools: [{ name: "replace", input: { file_path: `${P}/src/cart.js`, instruction: "rename", old_string: "notThere", new_string: "x" } }] }),
        step({ tools: [{ name: "run_shell_command", input: { command: "exit 3", description: "fail on purpose" } }] }),
        step({ tools: [{ name: "run_shell_command", input: { command: "npm test", description: "run the tests" } }] }),
        step({ tools: [{ name: "write_todos", input: { todos: [{ description: "Write the cart", status: "completed" }, { description: "Fix the test", status: "in_progress" }] } }] }),
        step({ tools: [{ name: "invoke_agent", input: { agent_name: "codebase_investigator", prompt: SUBAGENT_PROMPT } }] }),
        step({ tools: [{ name: "run_shell_command", input: { command: "git commit -am 'bad message'", description: "commit" } }] }),
        step({ text: "The cart is written; one test still fails." }),
      ],
      // The sub-agent is a conversation of its own: its first message holds the prompt it was given.
      lanes: [{ name: "subagent", match: (request, wire) => wire.firstSentText(request.body).includes(SUBAGENT_PROMPT), turns: [{ text: "src/cart.js" }] }],
    },
  });
});

afterAll(() => bench?.stop());

describe("Gemini CLI 0.61.0: a session through aioson's hooks", () => {
  test("write_file and replace are artifacts; the replace that failed is not", () => {
    expect(bench.events("event_type = 'artifact'").map((row) => row.message)).toEqual(["Write: src/cart.js", "Edit: src/cart.js"]);
  });

  test("the shell command that exited 3 and the failing test run are failed steps with their exit codes", () => {
    const steps = bench.events("event_type = 'step_done'").map((row) => [row.payload.command, row.payload.outcome, row.payload.exit_code]);
    expect(steps).toContainEqual(["exit 3", "failed", 3]);
    expect(steps).toContainEqual(["npm test", "failed", 1]);
    expect(bench.events("event_type = 'step_done'").find((row) => row.payload.command === "npm test")?.payload).toMatchObject({ test_runner: true, summary: "1 failing" });
  });

  test("the plan has the todos' text; the sub-agent is a task", () => {
    expect(bench.events("event_type = 'note' AND tool_name = 'TodoWrite'")[0]?.payload).toMatchObject({ todos: [{ content: "Write the cart", status: "completed" }, { content: "Fix the test", status: "in_progress" }], summary: "Tasks: 1 of 2 done" });
    expect(bench.events("event_type = 'note' AND tool_name = 'Task'")[0]?.payload).toMatchObject({ tool: "Task", subagent_type: "codebase_investigator" });
  });

  test("the project rule reached the model in the write's tool result, without < >; the bad commit was denied with the reason", () => {
    const afterWrite = functionResponses(seen[1]?.body).join("\n");
    expect(afterWrite).toContain("<hook_context>");
    expect(afterWrite).toContain("Write identifiers in English");
    expect(afterWrite).toContain("salvarPedido");
    // Gemini HTML-escapes < and > in hook context: aioson writes none, so the model reads no &lt;.
    const context = /<hook_context>([\s\S]*?)<\/hook_context>/.exec(JSON.parse(`"${/"output":"((?:[^"\\]|\\.)*)"/.exec(afterWrite)?.[1] ?? ""}"`))?.[1] ?? "";
    expect(context).toContain("[AIOSON context:guard]");
    expect(context).not.toMatch(/[<>]|&lt;|&gt;/);
    const afterCommit = functionResponses(seen[8]?.body).at(-1) ?? "";
    expect(afterCommit).toContain("Conventional Commits");
    expect(bench.events("event_type = 'step_done'").map((row) => row.payload.command)).not.toContain("git commit -am 'bad message'");
    expect(bench.events("event_type = 'guard_decision'").map((row) => [row.payload.guard, row.payload.decision])).toContainEqual(["pre-commit-guard", "deny"]);
  });

  test("the turn's answer is the last message; the turn and the session end", () => {
    expect(run.output?.response).toBe("The cart is written; one test still fails.");
    expect(bench.events("event_type = 'agent_message'").at(-1)?.payload.text).toContain("The cart is written; one test still fails.");
    expect(bench.events("event_type = 'agent_done'")).toHaveLength(1);
    expect(bench.events("event_type = 'session_ended'").map((row) => row.message)).toEqual(["Session ended (gemini): exit"]);
    expect(bench.events("event_type = 'compaction'")).toEqual([]);
  });
});
