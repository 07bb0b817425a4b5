/**
 * GitHub Copilot CLI 1.0.102 through the real binary: the PascalCase payloads it sends the handlers of
 * `.github/hooks/aioson.json` (shapes captured from the pinned CLI against a scripted model), recorded with
 * `--source=copilot` as the installed handlers call hooks:emit.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { cleanupTemp, runAioson, tempDir, tempProject } from "../helpers.ts";
import { runGuard } from "../kit/helpers.ts";
import { emit, events, payloadOf } from "./helpers.ts";
import { openDbFile } from "../../scripts/open-db.ts";

afterAll(cleanupTemp);

const SESSION = "799f5d30-ecf9-4b8e-8ae1-ff1aa2dab4ce";
const SUBAGENT = "03a85126-17cc-40c1-a1ff-b34512ae7cff";
const COPILOT = ["--agent=dev", "--source=copilot"];

function base(project: string, event: string, session = SESSION): Record<string, unknown> {
  return { hook_event_name: event, session_id: session, timestamp: "2026-12-01T14:10:35.099Z", cwd: project };
}

function post(project: string, tool: string, input: Record<string, unknown>, text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...base(project, "PostToolUse"), tool_name: tool, tool_input: input, tool_result: { result_type: "success", text_result_for_llm: text }, ...extra };
}

function recorded(project: string) {
  return events(project).filter((row) => row.event_type !== "session_started");
}

describe("Copilot CLI tool calls", () => {
  test("the shell's exit code comes from the <shellId … exit code K> suffix (result_type is success either way)", () => {
    const project = tempProject();
    emit(project, post(project, "Bash", { command: "exit 3", description: "fail" }, "\n<shellId: 0 completed with exit code 3>"), COPILOT);
    emit(project, post(project, "Bash", { command: "echo hi", description: "hi" }, "hi\n<shellId: 1 completed with exit code 0>"), COPILOT);
    emit(project, post(project, "Bash", { command: "npm test", description: "test" }, "2 passing\n1 failing\n<shellId: 2 completed with exit code 1>"), COPILOT);
    expect(recorded(project).map((row) => payloadOf(row)).map((p) => [p.command, p.outcome, p.exit_code, p.summary ?? null])).toEqual([
      ["exit 3", "failed", 3, null],
      ["echo hi", "passed", 0, null],
      ["npm test", "failed", 1, "1 failing"],
    ]);
  });

  test("Write {path, file_text} and Edit {path, old_str, new_str} are artifacts, a failed one is not; Agent is a sub-agent task", () => {
    const project = tempProject();
    emit(project, post(project, "Write", { path: join(project, "src", "a.ts"), file_text: "x" }, "Created file"), COPILOT);
    emit(project, post(project, "Edit", { path: join(project, "src", "a.ts"), old_str: "x", new_str: "y" }, "File updated"), COPILOT);
    emit(project, { ...base(project, "PostToolUseFailure"), tool_name: "Write", tool_input: { path: join(project, "b.ts"), file_text: "x" }, error: "Parent directory does not exist" }, COPILOT);
    emit(project, post(project, "Agent", { description: "Explore the code", prompt: "Look around", agent_type: "explore", name: "scout" }, "Sub-agent report"), COPILOT);
    emit(project, post(project, "view", { path: join(project, "src", "a.ts") }, "y"), COPILOT);
    const rows = recorded(project);
    expect(rows.map((row) => [row.event_type, row.message])).toEqual([
      ["artifact", "Write: src/a.ts"],
      ["artifact", "Edit: src/a.ts"],
      ["note", "Explore the code"],
    ]);
    expect(payloadOf(rows[2])).toMatchObject({ tool: "Task", subagent_type: "explore" });
  });

  test("the plan is the todos table of the session's session.db after an sql write to it; other queries record nothing", () => {
    const project = tempProject();
    const home = tempDir("aioson-home-");
    const dir = join(home, ".copilot", "session-state", SESSION);
    mkdirSync(dir, { recursive: true });
    const db = openDbFile(join(dir, "session.db"));
    db.exec("CREATE TABLE todos (id TEXT PRIMARY KEY, title TEXT NOT NULL, description TEXT, status TEXT DEFAULT 'pending')");
    db.exec("INSERT INTO todos (id, title) VALUES ('a', 'Writing model'), ('b', 'Adding tests'), ('c', 'Shipping')");
    db.exec("UPDATE todos SET status = 'done' WHERE id = 'a'; UPDATE todos SET status = 'blocked' WHERE id = 'c'");
    db.close();
    const env = { HOME: home };
    const sql = (query: string) => post(project, "sql", { description: "todos", query }, "1 row(s) updated.");
    emit(project, sql("UPDATE todos SET status = 'done' WHERE id = 'a';"), COPILOT, { env });
    emit(project, sql("SELECT * FROM todos WHERE status = 'pending'"), COPILOT, { env });
    emit(project, sql("INSERT INTO session_state (key, value) VALUES ('phase', 'x')"), COPILOT, { env });
    const rows = recorded(project);
    expect(rows).toHaveLength(1);
    expect(payloadOf(rows[0])).toMatchObject({
      tool: "TodoWrite",
      todos: [{ content: "Writing model", status: "completed" }, { content: "Adding tests", status: "pending" }, { content: "Shipping", status: "pending" }],
      summary: "Tasks: 1 of 3 done",
    });
    // A session id that is no id never becomes a path.
    emit(project, { ...sql("UPDATE todos SET status = 'done'"), session_id: "../../etc" }, COPILOT, { env });
    expect(recorded(project)).toHaveLength(1);
  });
});

describe("Copilot CLI sub-agents and turns", () => {
  test("a sub-agent's Stop ends no turn and its tool calls land in the parent's session", () => {
    const project = tempProject();
    const sub = { agent_id: SUBAGENT, agent_type: "explore", parent_agent_id: SESSION };
    emit(project, { ...post(project, "Write", { path: join(project, "notes.md"), file_text: "x" }, "Created"), ...base(project, "PostToolUse", SUBAGENT), ...sub }, COPILOT);
    const stop = emit(project, { ...base(project, "Stop", SUBAGENT), ...sub, stop_reason: "end_turn", stop_hook_active: false }, ["--then=agent:done", ...COPILOT]);
    expect(stop.code).toBe(0);
    const rows = recorded(project);
    expect(rows.map((row) => [row.event_type, row.harness_session_id])).toEqual([["artifact", SESSION]]);
  });
});

describe("Copilot CLI compactions", () => {
  test("preCompact fired twice is one marker; the next tool call hands over the checkpoint once, top-level and nested", () => {
    const project = tempProject();
    emit(project, post(project, "Write", { path: join(project, "a.ts"), file_text: "x" }, "Created"), COPILOT);
    emit(project, { ...base(project, "PreCompact"), trigger: "auto", custom_instructions: "" }, COPILOT);
    emit(project, { ...base(project, "PreCompact"), trigger: "auto", custom_instructions: "" }, COPILOT);
    expect(recorded(project).filter((row) => row.event_type === "compaction")).toHaveLength(1);
    const next = emit(project, post(project, "Bash", { command: "echo x" }, "x\n<shellId: 3 completed with exit code 0>"), COPILOT);
    const answer = JSON.parse(next.result.output as string) as { additionalContext: string; hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(answer.additionalContext).toContain("[AIOSON checkpoint]");
    expect(answer.hookSpecificOutput).toEqual({ hookEventName: "PostToolUse", additionalContext: answer.additionalContext });
    expect(emit(project, post(project, "Bash", { command: "echo y" }, "y\n<shellId: 4 completed with exit code 0>"), COPILOT).result.output).toBeUndefined();
    emit(project, { ...base(project, "PreCompact"), trigger: "auto" }, COPILOT);
    expect(recorded(project).filter((row) => row.event_type === "compaction")).toHaveLength(2);
    expect(JSON.parse(emit(project, { ...base(project, "UserPromptSubmit"), prompt: "go on" }, COPILOT).result.output as string).additionalContext).toContain("[AIOSON checkpoint]");
  });
});

describe("guard:stop-guards (Copilot hands the model one Stop reason)", () => {
  test("every blocking guard's reason comes in one answer; a sub-agent's stop is left alone", () => {
    const project = tempProject();
    const stop = { hook_event_name: "Stop", session_id: SESSION, cwd: project, stop_reason: "end_turn", stop_hook_active: false };
    const run = runAioson(["guard:stop-guards", project, "--tool=copilot", "--guards=stop-checklist,skill-feedback"], { stdin: JSON.stringify(stop) });
    const answer = JSON.parse(run.stdout) as { decision: string; reason: string };
    expect(answer.decision).toBe("block");
    expect(answer.reason).toContain("Before finishing");
    expect(answer.reason).toContain("Skill feedback check");
    expect(runAioson(["guard:stop-guards", project, "--tool=copilot", "--guards=stop-checklist"], { stdin: JSON.stringify({ ...stop, agent_id: SUBAGENT }) }).stdout).toBe("");
    expect(runGuard("stop-checklist", { ...stop, agent_id: SUBAGENT }, { args: ["--tool=copilot"] }).stdout).toBe("");
    expect(runAioson(["guard:stop-guards", project, "--tool=copilot", "--guards=stop-checklist"], { stdin: JSON.stringify({ ...stop, stop_hook_active: true }) }).stdout).toBe("");
  });
});

describe("context:guard for Copilot CLI", () => {
  test("its PreToolUse Write {path, file_text} and Edit {path, old_str, new_str} are judged like Claude's", () => {
    const project = tempProject({ ".aioson/rules/naming.md": "---\nenforcement: source-code-language\n---\n## Rules\n- Write identifiers in English.\n", "src/b.js": "export function ok() {}\n" });
    const pre = (tool: string, input: Record<string, unknown>) => ({ ...base(project, "PreToolUse"), tool_name: tool, tool_input: input });
    const guard = (event: unknown) => runAioson(["context:guard", project, "--tool=copilot", "--json", "--no-jev"], { stdin: JSON.stringify(event) }).json as { hookSpecificOutput?: { hookEventName: string; additionalContext: string } };
    const write = guard(pre("Write", { path: join(project, "src", "a.js"), file_text: "export function salvarPedido() {}\n" }));
    expect(write.hookSpecificOutput?.hookEventName).toBe("PreToolUse");
    expect(write.hookSpecificOutput?.additionalContext).toContain("salvarPedido");
    const edit = guard(pre("Edit", { path: join(project, "src", "b.js"), old_str: "ok", new_str: "criarConta" }));
    expect(edit.hookSpecificOutput?.additionalContext).toContain("criarConta");
  });
});
