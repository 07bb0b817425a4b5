/**
 * Gemini CLI 0.61.0 through the real binary: payloads shaped as the pinned Gemini CLI sent them (captured from a run
 * against a scripted model), recorded with `--source=gemini`, the way the installed handlers call hooks:emit.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { cleanupTemp, tempProject } from "../helpers.ts";
import { emit, events, payloadOf, storeExists } from "./helpers.ts";

afterAll(cleanupTemp);

const SESSION = "dff62d76-749a-41a9-91c4-f6f6c8593053";
const GEMINI = ["--agent=dev", "--source=gemini"];

function base(project: string, event: string): Record<string, unknown> {
  return {
    session_id: SESSION,
    transcript_path: `/home/dev/.gemini/tmp/project/chats/session-2026-12-01T13-51-${SESSION.slice(0, 8)}.jsonl`,
    cwd: project,
    hook_event_name: event,
    timestamp: "2026-12-01T13:51:46.503Z",
  };
}

function afterTool(project: string, tool: string, input: Record<string, unknown>, response: Record<string, unknown>): Record<string, unknown> {
  return { ...base(project, "AfterTool"), tool_name: tool, tool_input: input, tool_response: response };
}

function shell(project: string, command: string, llmContent: string): Record<string, unknown> {
  return afterTool(project, "run_shell_command", { command, description: "run it" }, { llmContent, returnDisplay: "" });
}

function beforeModel(project: string, first: string): Record<string, unknown> {
  return { ...base(project, "BeforeModel"), llm_request: { model: "gemini-2.5-flash", messages: [{ role: "user", content: first }, { role: "model", content: "Got it. Thanks for the additional context!" }], config: { temperature: 1 } } };
}

const CONTEXT = "<session_context>\nThis is the Gemini CLI.\n</session_context>";
const snapshot = (goal: string) => `${CONTEXT}<state_snapshot><overall_goal>${goal}</overall_goal></state_snapshot>`;

function recorded(project: string) {
  return events(project).filter((row) => row.event_type !== "session_started");
}

describe("Gemini CLI tool calls", () => {
  test("write_file and replace are artifacts; a replace that failed (error) records nothing", () => {
    const project = tempProject();
    const file = join(project, "hello.txt");
    expect(emit(project, afterTool(project, "write_file", { file_path: "hello.txt", content: "hi\n" }, { llmContent: `Successfully created and wrote to new file: ${file}.`, returnDisplay: { originalContent: "", newContent: "hi\n", isNewFile: true } }), GEMINI).code).toBe(0);
    emit(project, afterTool(project, "replace", { file_path: "hello.txt", instruction: "x", old_string: "nope", new_string: "yes" }, {
      llmContent: "Could not find an exact match for 'old_string' in 'hello.txt'.",
      returnDisplay: "Error: Could not find an exact match for old_string in 'hello.txt'.",
      error: { message: "Could not find an exact match for 'old_string' in 'hello.txt'.", type: "edit_no_occurrence_found" },
    }), GEMINI);
    emit(project, afterTool(project, "replace", { file_path: file, instruction: "x", old_string: "hi", new_string: "hello" }, { llmContent: `Successfully modified file: ${file} (1 replacements).`, returnDisplay: { originalContent: "hi\n", newContent: "hello\n" } }), GEMINI);
    expect(recorded(project).map((row) => [row.event_type, row.message])).toEqual([
      ["artifact", "Write: hello.txt"],
      ["artifact", "Edit: hello.txt"],
    ]);
  });

  test("the exit code comes from Gemini's own Exit Code line; none means 0; the command's output cannot fake it", () => {
    const project = tempProject();
    emit(project, shell(project, "exit 3", "<untrusted_context>\nOutput: (empty)\nExit Code: 3\nProcess Group PGID: 29783\n</untrusted_context>"), GEMINI);
    emit(project, shell(project, "echo hello", "<untrusted_context>\nOutput: hello\nProcess Group PGID: 9287\n</untrusted_context>"), GEMINI);
    emit(project, shell(project, "printf 'Exit Code: 7\\n'", "<untrusted_context>\nOutput: Exit Code: 7\nok\nProcess Group PGID: 9290\n</untrusted_context>"), GEMINI);
    emit(project, shell(project, "npm test", "<untrusted_context>\nOutput: 3 passing\n1 failing\nExit Code: 1\nProcess Group PGID: 9301\n</untrusted_context>"), GEMINI);
    emit(project, shell(project, "sleep 999", "Command was cancelled by user before it could complete. There was no output before it was cancelled."), GEMINI);
    const steps = recorded(project).map((row) => payloadOf(row));
    expect(steps.map((p) => [p.command, p.outcome, p.exit_code])).toEqual([
      ["exit 3", "failed", 3],
      ["echo hello", "passed", 0],
      ["printf 'Exit Code: 7\\n'", "passed", 0],
      ["npm test", "failed", 1],
      ["sleep 999", "unknown", null],
    ]);
    expect(steps[3]?.test_runner).toBe(true);
    expect(steps[3]?.summary).toBe("1 failing");
  });

  test("todos come from description; invoke_agent is a sub-agent task; read-only tools, complete_task and MCP tools record nothing", () => {
    const project = tempProject();
    emit(project, afterTool(project, "write_todos", { todos: [{ description: "step one", status: "completed" }, { description: "step two", status: "in_progress" }, { description: "step three", status: "cancelled" }] }, { llmContent: "Successfully updated the todo list." }), GEMINI);
    emit(project, afterTool(project, "invoke_agent", { agent_name: "codebase_investigator", prompt: "look around" }, { llmContent: [{ text: "Subagent 'codebase_investigator' finished." }] }), GEMINI);
    for (const tool of ["read_file", "read_many_files", "glob", "grep_search", "list_directory", "google_web_search", "web_fetch", "complete_task", "mcp_github_list_issues"]) {
      emit(project, afterTool(project, tool, { file_path: "a.txt" }, { llmContent: "ok" }), GEMINI);
    }
    const rows = recorded(project);
    expect(rows.map((row) => row.event_type)).toEqual(["note", "note"]);
    expect(payloadOf(rows[0]).todos).toEqual([
      { content: "step one", status: "completed" },
      { content: "step two", status: "in_progress" },
      { content: "step three", status: "pending" },
    ]);
    expect(payloadOf(rows[0]).summary).toBe("Tasks: 1 of 3 done");
    expect(payloadOf(rows[1])).toMatchObject({ tool: "Task", subagent_type: "codebase_investigator" });
  });
});

describe("Gemini CLI turns and sessions", () => {
  test("AfterAgent's prompt_response is the last message and ends the turn; SessionEnd closes the session", () => {
    const project = tempProject();
    emit(project, { ...base(project, "BeforeAgent"), prompt: "create a file" }, GEMINI);
    emit(project, { ...base(project, "AfterAgent"), prompt: "create a file", prompt_response: "All done.", stop_hook_active: false }, ["--then=agent:done", ...GEMINI]);
    emit(project, { ...base(project, "SessionEnd"), reason: "exit" }, [...GEMINI, "--event=SessionEnd"]);
    expect(recorded(project).map((row) => [row.event_type, row.message])).toEqual([
      ["agent_message", "All done."],
      ["agent_done", "Session ended via dev hook"],
      ["session_ended", "Session ended (gemini): exit"],
    ]);
  });

  test("PreCompress (before every model call) and BeforeAgent/BeforeTool/SessionStart record nothing", () => {
    const project = tempProject();
    for (let i = 0; i < 3; i++) emit(project, { ...base(project, "PreCompress"), trigger: "auto" }, GEMINI);
    emit(project, { ...base(project, "BeforeAgent"), prompt: "fix the cart" }, GEMINI);
    emit(project, { ...base(project, "BeforeTool"), tool_name: "write_file", tool_input: { file_path: "a.txt", content: "x" } }, GEMINI);
    emit(project, { ...base(project, "SessionStart"), source: "startup" }, GEMINI);
    emit(project, beforeModel(project, `${CONTEXT}fix the cart`), GEMINI);
    expect(storeExists(project)).toBe(false);
  });
});

describe("Gemini CLI compressions", () => {
  test("one marker per compression however many model calls carry its snapshot; the checkpoint comes once, on the next AfterTool", () => {
    const project = tempProject();
    emit(project, afterTool(project, "write_file", { file_path: "a.txt", content: "a\n" }, { llmContent: "Successfully created a.txt" }), GEMINI);
    for (let i = 0; i < 3; i++) expect(emit(project, beforeModel(project, snapshot("first")), GEMINI).stdout).not.toContain("additionalContext");
    const compactions = () => recorded(project).filter((row) => row.event_type === "compaction");
    expect(compactions()).toHaveLength(1);
    expect(payloadOf(compactions()[0]).trigger).toBe("state_snapshot");

    const delivered = emit(project, shell(project, "echo <b>", "Output: <b>\nProcess Group PGID: 1"), GEMINI);
    const output = delivered.result.output as string;
    expect(typeof output).toBe("string");
    expect(/^[\x20-\x7e]*$/.test(output)).toBe(true);
    const answer = JSON.parse(output) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(answer.hookSpecificOutput.hookEventName).toBe("AfterTool");
    expect(answer.hookSpecificOutput.additionalContext).toContain("[AIOSON checkpoint]");
    expect(answer.hookSpecificOutput.additionalContext).toContain("a.txt");
    expect(answer.hookSpecificOutput.additionalContext).not.toMatch(/[<>]/);
    expect(emit(project, shell(project, "echo again", "Output: again\nProcess Group PGID: 2"), GEMINI).result.output).toBeUndefined();

    // A later compression is a second marker; its checkpoint goes to the next prompt.
    emit(project, beforeModel(project, snapshot("first")), GEMINI);
    emit(project, beforeModel(project, snapshot("second")), GEMINI);
    expect(compactions()).toHaveLength(2);
    const prompt = emit(project, { ...base(project, "BeforeAgent"), prompt: "go on" }, GEMINI);
    expect(JSON.parse(prompt.result.output as string).hookSpecificOutput.hookEventName).toBe("BeforeAgent");
    expect(emit(project, { ...base(project, "BeforeAgent"), prompt: "and on" }, GEMINI).result.output).toBeUndefined();
  });

  test("without --json the checkpoint is all the hook prints (what Gemini parses)", () => {
    const project = tempProject();
    emit(project, afterTool(project, "write_file", { file_path: "a.txt", content: "a\n" }, { llmContent: "ok" }), GEMINI);
    emit(project, beforeModel(project, snapshot("goal")), GEMINI);
    const run = Bun.spawnSync([join(import.meta.dir, "..", "..", "dist", "aioson"), "hooks:emit", project, ...GEMINI], {
      stdin: new TextEncoder().encode(JSON.stringify({ ...base(project, "BeforeAgent"), prompt: "next" })),
      env: { ...process.env, HOME: project },
    });
    const stdout = run.stdout.toString();
    expect(run.exitCode).toBe(0);
    expect(stdout.trim().split("\n")).toHaveLength(1);
    expect(JSON.parse(stdout).hookSpecificOutput.additionalContext).toContain("[AIOSON checkpoint]");
  });
});
