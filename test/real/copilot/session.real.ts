/**
 * GitHub Copilot CLI 1.0.102 through the `.github/hooks/aioson.json` aioson writes for VS Code and the CLI: file
 * write and edit, a shell command that exits 3 and a failing test run (their exit codes from the shell result's
 * suffix), a plan kept in the sql tool's todos table, a sub-agent (whose own Stop ends no turn), a denied commit, a
 * project rule reaching the model before the write, the reasons of two blocking Stop guards both reaching the model,
 * and the session's end.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { REMINDERS } from "../../../src/kit/guard-stop.ts";
import type { LoggedRequest } from "../lib/server.ts";
import { CopilotBench, toolMessages } from "./bench.ts";

const RULE = "---\nenforcement: source-code-language\n---\n## Rules\n- Write identifiers in English.\n";
const PACKAGE = JSON.stringify({ name: "shop", version: "1.0.0", scripts: { test: "node -e \"console.log('3 passing'); console.log('1 failing'); process.exit(1)\"" } });
const SUBAGENT_PROMPT = "SUBAGENT: list the files of the project";

let bench: CopilotBench;
const seen: LoggedRequest[] = [];

beforeAll(async () => {
  bench = await CopilotBench.create({ files: { ".aioson/rules/naming.md": RULE, "package.json": PACKAGE, "src/.keep": "" }, git: true, guards: ["pre-commit-guard", "stop-checklist", "skill-feedback"] });
  const P = bench.project;
  const step = (reply: { text?: string; tools?: Array<{ name: string; input: Record<string, unknown> }> }) => (request: LoggedRequest) => {
    seen.push(request);
    return reply;
  };
  await bench.run({
    prompt: "build the cart",
    script: {
      turns: [
        step({ tools: [{ name: "create", input: { path: `${P}/src/cart.js`, file_text: "export function salvarPedido() {}\n" } }] }),
        step({ tools: [{ name: "edit", input: { path: `${P}/src/cart.js`, old_str: "salvarPedido", new_str: "savePedido" } }] }),
        step({ tools: [{ name: "bash", input: { command: "exit 3", description: "fail on purpose" } }] }),
        step({ tools: [{ name: "bash", input: { command: "npm test", description: "run the tests" } }] }),
        step({ tools: [{ name: "sql", input: { description: "Insert todos", query: "INSERT INTO todos (id, title, description) VALUES ('cart', 'Writing the cart', 'src/cart.js'), ('tests', 'Fixing the test', 'npm test');" } }] }),
        step({ tools: [{ name: "sql", input: { description: "Update todo", query: "UPDATE todos SET status = 'done' WHERE id = 'cart';" } }] }),
        step({ tools: [{ name: "task", input: { description: "List the files", prompt: SUBAGENT_PROMPT, agent_type: "explore", name: "scout" } }] }),
        step({ tools: [{ name: "bash", input: { command: "git commit -am 'bad message'", description: "commit" } }] }),
        step({ text: "The cart is written; one test still fails." }),
        step({ text: "Checked: tests ran, no skill was used." }),
      ],
      lanes: [{ name: "subagent", match: (request, wire) => wire.firstSentText(request.body).includes(SUBAGENT_PROMPT), turns: [{ text: "src/cart.js" }] }],
    },
  });
});

afterAll(() => bench?.stop());

describe("GitHub Copilot CLI 1.0.102: a session through aioson's hooks", () => {
  test("create and edit are artifacts", () => {
    expect(bench.events("event_type = 'artifact'").map((row) => row.message)).toEqual(["Write: src/cart.js", "Edit: src/cart.js"]);
  });

  test("the shell command that exited 3 and the failing test run are failed steps with their exit codes", () => {
    const steps = bench.events("event_type = 'step_done'");
    expect(steps.map((row) => [row.payload.command, row.payload.outcome, row.payload.exit_code])).toEqual([
      ["exit 3", "failed", 3],
      ["npm test", "failed", 1],
    ]);
    expect(steps[1]?.payload).toMatchObject({ test_runner: true, summary: "1 failing" });
  });

  test("the plan is the todos table after each sql write; the sub-agent is a task, and its own Stop ended no turn", () => {
    const plans = bench.events("event_type = 'note' AND tool_name = 'TodoWrite'").map((row) => row.payload.summary);
    expect(plans).toEqual(["Tasks: 0 of 2 done", "Tasks: 1 of 2 done"]);
    expect(bench.events("event_type = 'note' AND tool_name = 'Task'")[0]?.payload).toMatchObject({ tool: "Task", subagent_type: "explore" });
    // One turn: the blocked Stop and the one that continued it are the same turn; the sub-agent's Stop is none.
    expect(bench.events("event_type = 'agent_done'")).toHaveLength(1);
  });

  test("the project rule reached the model with the write (Copilot adds preToolUse context as a message of its own); the bad commit was denied with its reason", () => {
    const afterWrite = bench.server.wire.lastSentText(seen[1]?.body);
    expect(afterWrite).toContain("Additional context from preToolUse hook:\n[AIOSON context:guard]");
    expect(afterWrite).toContain("Write identifiers in English");
    expect(afterWrite).toContain("salvarPedido");
    expect(toolMessages(seen[8]?.body).at(-1)).toContain("Conventional Commits");
    expect(bench.events("event_type = 'guard_decision'").map((row) => [row.payload.guard, row.payload.decision])).toContainEqual(["pre-commit-guard", "deny"]);
  });

  test("both blocking Stop guards' reasons reached the model in one message; the session ended", () => {
    const reminder = bench.server.wire.lastSentText(seen[9]?.body);
    expect(reminder).toContain(REMINDERS["stop-checklist"]);
    expect(reminder).toContain(REMINDERS["skill-feedback"].slice(0, 60));
    expect(bench.events("event_type = 'session_ended'").map((row) => row.message)).toEqual(["Session ended (copilot): complete"]);
  });
});
