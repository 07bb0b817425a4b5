/** The Copilot (VS Code agent hooks) adapter, its classification, the Copilot transcript and the duplicate test. */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { classify, eventName } from "../../src/emit/classify.ts";
import { lastAssistantText } from "../../src/emit/transcript.ts";
import { isCopilotPayload } from "../../src/harness/copilot.ts";
import { adapterFor, routePayload } from "../../src/harness/index.ts";
import { cleanupTemp, tempDir, tempProject } from "../helpers.ts";

afterAll(cleanupTemp);

const copilot = adapterFor("copilot");
const STAMP = "2026-11-20T14:10:07.259Z";
const TRANSCRIPT = "/home/dev/.config/Code/User/workspaceStorage/8f3a/GitHub.copilot-chat/transcripts/s1.jsonl";

function post(tool_name: string, tool_input: Record<string, unknown>, tool_response: unknown = "ok"): Record<string, unknown> {
  return { timestamp: STAMP, hook_event_name: "PostToolUse", session_id: "s1", transcript_path: TRANSCRIPT, cwd: "/w", tool_name, tool_input, tool_use_id: "call_1", tool_response };
}

describe("copilot adapter: envelope", () => {
  test("current (snake_case) and older (camelCase) VS Code envelopes land the same", () => {
    const current = copilot(post("create_file", { filePath: "/w/a.ts", content: "x" }));
    const { hook_event_name, session_id, ...rest } = post("create_file", { filePath: "/w/a.ts", content: "x" });
    const older = copilot({ ...rest, hookEventName: hook_event_name, sessionId: session_id });
    expect(older).toEqual(current);
    expect(current).toMatchObject({ harness: "copilot", event: "PostToolUse", sessionId: "s1", cwd: "/w", transcriptPath: TRANSCRIPT });
  });

  test("tool_response is plain text with no exit code", () => {
    expect(copilot(post("run_in_terminal", { command: "ls" }, "a\nb")).response).toEqual({ text: "a\nb", exitCode: null, structured: false, interrupted: false });
  });

  test("UserPromptSubmit prompt, Stop with only stop_hook_active, PreCompact trigger", () => {
    expect(copilot({ timestamp: STAMP, hook_event_name: "UserPromptSubmit", session_id: "s1", prompt: "@qa go" })).toMatchObject({ event: "UserPromptSubmit", prompt: "@qa go", tool: null });
    expect(copilot({ timestamp: STAMP, hook_event_name: "Stop", session_id: "s1", stop_hook_active: false })).toMatchObject({ event: "Stop", lastMessage: null });
    expect(copilot({ timestamp: STAMP, hook_event_name: "PreCompact", session_id: "s1", trigger: "auto" })).toMatchObject({ event: "PreCompact", trigger: "auto" });
  });
});

describe("copilot adapter: tools", () => {
  test.each([
    ["create_file", { filePath: "/w/a.ts", content: "x" }, { name: "Write", filePath: "/w/a.ts", files: null }],
    ["replace_string_in_file", { filePath: "/w/b.ts", oldString: "a", newString: "b" }, { name: "Edit", filePath: "/w/b.ts", files: null }],
    ["insert_edit_into_file", { filePath: "/w/c.ts", code: "x", explanation: "e" }, { name: "Edit", filePath: "/w/c.ts" }],
    ["edit_notebook_file", { filePath: "/w/n.ipynb", editType: "insert", cellId: "#1" }, { name: "NotebookEdit", filePath: "/w/n.ipynb" }],
    ["copilot_createFile", { filePath: "/w/d.ts" }, { name: "Write", filePath: "/w/d.ts" }],
    ["run_in_terminal", { command: "npm test", explanation: "e", goal: "g", isBackground: false }, { name: "Bash", command: "npm test" }],
    ["apply_patch", { input: "*** Begin Patch\n*** Add File: /w/p.ts\n*** End Patch", explanation: "e" }, { name: "apply_patch", command: null }],
    ["runSubagent", { prompt: "review it", description: "Review edge cases", agentName: "Plan" }, { name: "Task", description: "Review edge cases", taskPrompt: "review it", subagentType: "Plan" }],
    ["read_file", { filePath: "/w/a.ts", startLine: 1, endLine: 9 }, { name: "Read" }],
    ["list_dir", { path: "/w" }, { name: "LS" }],
    ["grep_search", { query: "x", isRegexp: false }, { name: "Grep" }],
    ["file_search", { query: "**/*.ts" }, { name: "Glob" }],
    ["semantic_search", { query: "x" }, { name: "Grep" }],
    ["get_terminal_output", { id: "t1" }, { name: "Read" }],
    ["fetch_webpage", { urls: ["https://x"] }, { name: "WebFetch" }],
    ["create_directory", { dirPath: "/w/d" }, { name: "create_directory" }],
  ] as const)("%s", (name, input, expected) => {
    expect(copilot(post(name, input)).tool).toMatchObject(expected);
  });

  test("apply_patch: the patch text sits in `input`", () => {
    expect(copilot(post("apply_patch", { input: "*** Begin Patch\n*** Update File: /w/x.ts\n" })).tool?.patch).toContain("*** Update File: /w/x.ts");
  });

  test("multi_replace_string_in_file: one Edit per distinct file, first-occurrence order", () => {
    const tool = copilot(post("multi_replace_string_in_file", {
      explanation: "e",
      replacements: [{ filePath: "/w/b.ts", oldString: "1" }, { filePath: "/w/a.ts" }, { filePath: "/w/b.ts" }, { filePath: "" }, { oldString: "no path" }, 7],
    })).tool;
    expect(tool).toMatchObject({ name: "Edit", filePath: "/w/b.ts", files: ["/w/b.ts", "/w/a.ts"] });
  });

  test("the docs' editFiles example: files[]", () => {
    expect(copilot(post("editFiles", { files: ["src/main.ts", "src/b.ts"] })).tool).toMatchObject({ name: "Edit", files: ["src/main.ts", "src/b.ts"] });
  });

  test("manage_todo_list: todoList titles and VS Code statuses; a read changes nothing", () => {
    const tool = copilot(post("manage_todo_list", {
      operation: "write",
      todoList: [
        { id: 1, title: "A", description: "d", status: "completed" },
        { id: 2, title: "B", status: "in-progress" },
        { id: 3, title: "C", status: "not-started" },
      ],
    })).tool;
    expect(tool).toMatchObject({ name: "TodoWrite", plan: [{ text: "A", status: "completed" }, { text: "B", status: "in-progress" }, { text: "C", status: "not-started" }] });
    expect(copilot(post("manage_todo_list", { operation: "read" })).tool).toMatchObject({ name: "TodoRead", plan: null });
  });

  test("wrong-typed Copilot fields become absent", () => {
    expect(copilot(post("multi_replace_string_in_file", { replacements: "nope" })).tool).toMatchObject({ name: "Edit", filePath: null, files: null });
    expect(copilot(post("manage_todo_list", { todoList: 3, operation: 4 })).tool).toMatchObject({ name: "TodoWrite", plan: null });
    expect(copilot(post("runSubagent", { agentName: ["x"] })).tool).toMatchObject({ name: "Task", subagentType: null });
  });
});

describe("copilot classification", () => {
  const root = tempProject();
  const run = (payload: Record<string, unknown>) => {
    const event = copilot(payload);
    return classify({ root, source: "copilot", eventName: eventName(null, event) }, event);
  };

  test("multi-file edit: one artifact per distinct project path", () => {
    const records = run(post("multi_replace_string_in_file", { replacements: [{ filePath: join(root, "src", "a.ts") }, { filePath: "src/a.ts" }, { filePath: join(root, "b.ts") }] }));
    expect(records.map((record) => record.message)).toEqual(["Edit: src/a.ts", "Edit: b.ts"]);
    expect(records.map((record) => record.payload)).toEqual([{ tool: "Edit", file: "src/a.ts" }, { tool: "Edit", file: "b.ts" }]);
  });

  test("multi-file edit beyond 50 files is bounded like a patch", () => {
    const replacements = Array.from({ length: 70 }, (_, i) => ({ filePath: join(root, `f${i}.ts`) }));
    expect(run(post("multi_replace_string_in_file", { replacements }))).toHaveLength(50);
  });

  test("a hostile list of 200,000 distinct paths is cut early (linear, no quadratic dedupe)", () => {
    const replacements = Array.from({ length: 200_000 }, (_, i) => ({ filePath: `src/f${i}.ts` }));
    expect(copilot(post("multi_replace_string_in_file", { replacements })).tool?.files).toHaveLength(200);
    const records = run(post("multi_replace_string_in_file", { replacements }));
    expect(records).toHaveLength(50);
    expect(records.at(-1)?.message).toBe("Edit: src/f49.ts");
  });

  test.each([
    ["an `Exit code:` line decides", "npm run lint; echo \"Exit code: $?\"", "1 problem\nExit code: 2\n", { outcome: "failed", exit_code: 2 }],
    ["a failing test summary", "npm test", " Test Files  1 failed (1)\n      Tests  1 failed | 3 passed (4)\n", { outcome: "failed", exit_code: null, test_runner: true }],
    ["a passing test summary", "pytest -q", "....\n4 passed in 0.12s\n", { outcome: "passed", exit_code: null, test_runner: true }],
    ["no signal: unknown, never implied success", "git status", " M a.ts\n", { outcome: "unknown", exit_code: null }],
    ["a background command: unknown", "npm run dev", "Command is running in terminal with ID=abc\n The command is still running, with output:\n ready", { outcome: "unknown", exit_code: null }],
  ] as const)("run_in_terminal: %s", (_label, command, output, expected) => {
    const [record] = run(post("run_in_terminal", { command, explanation: "e", goal: "g", isBackground: command === "npm run dev" }, output));
    expect(record?.eventType).toBe("step_done");
    expect(record?.payload).toMatchObject(expected);
  });

  test("todo statuses normalised; a todo read and read-only tools record nothing", () => {
    const [record] = run(post("manage_todo_list", { todoList: [{ id: 1, title: "A", status: "completed" }, { id: 2, title: "B", status: "in-progress" }, { id: 3, title: "C", status: "not-started" }] }));
    expect(record?.payload).toMatchObject({ todos: [{ content: "A", status: "completed" }, { content: "B", status: "in_progress" }, { content: "C", status: "pending" }], summary: "Tasks: 1 of 3 done" });
    for (const name of ["read_file", "list_dir", "grep_search", "file_search", "semantic_search", "get_terminal_output", "get_errors", "get_changed_files", "list_code_usages"]) {
      expect(run(post(name, { filePath: join(root, "a.ts") }))).toEqual([]);
    }
    expect(run(post("manage_todo_list", { operation: "read" }))).toEqual([]);
  });

  test("VS Code's MCP tools (mcp_<server>_<tool>) are ignored like Claude's mcp__ tools", () => {
    expect(copilot(post("mcp_github_get_issue", { issue_number: 1 })).tool?.name).toBe("mcp__github_get_issue");
    expect(run(post("mcp_github_get_issue", { issue_number: 1 }))).toEqual([]);
    expect(run(post("mcp__context7__docs", {}))).toEqual([]);
  });

  test("runSubagent → Task note with the agent name; other tools → notes", () => {
    expect(run(post("runSubagent", { prompt: "p", description: "Review rounding", agentName: "Plan" }))[0]).toMatchObject({ eventType: "note", message: "Review rounding", payload: { tool: "Task", subagent_type: "Plan" } });
    expect(run(post("create_directory", { dirPath: join(root, "d") }))[0]).toMatchObject({ eventType: "note", message: "[copilot] create_directory" });
  });
});

describe("Copilot transcript (Stop has no message of its own)", () => {
  const entry = (type: string, data: Record<string, unknown>) => JSON.stringify({ type, data, id: "e", timestamp: STAMP, parentId: null });

  test("the last non-empty assistant.message wins; tool-only rounds are skipped", () => {
    const path = join(tempDir(), "t.jsonl");
    writeFileSync(path, [
      entry("session.start", { sessionId: "s1", version: 1, producer: "copilot-agent" }),
      entry("user.message", { content: "hi", attachments: [] }),
      entry("assistant.message", { messageId: "1", content: "First answer.", toolRequests: [] }),
      entry("assistant.message", { messageId: "2", content: "Final answer.", toolRequests: [] }),
      entry("assistant.message", { messageId: "3", content: "", toolRequests: [{ toolCallId: "c", name: "get_errors", arguments: "{}", type: "function" }] }),
      entry("assistant.turn_end", { turnId: "0.1" }),
    ].join("\n") + "\n");
    expect(lastAssistantText(path)).toBe("Final answer.");
  });

  test("a Stop reads its message from the Copilot transcript", () => {
    const dir = join(tempDir(), "GitHub.copilot-chat", "transcripts");
    mkdirSync(dir, { recursive: true });
    const path = join(dir, "s1.jsonl");
    writeFileSync(path, `${entry("assistant.message", { content: "Done: rounding fixed.", toolRequests: [] })}\n`);
    const records = classify({ root: tempProject(), source: "copilot", eventName: "Stop" }, copilot({ timestamp: STAMP, hook_event_name: "Stop", session_id: "s1", transcript_path: path, stop_hook_active: false }));
    expect(records).toMatchObject([{ eventType: "agent_message", message: "Done: rounding fixed." }]);
  });

  test("no text entries: nothing", () => {
    const path = join(tempDir(), "t.jsonl");
    writeFileSync(path, `${entry("assistant.message", { content: 5 })}\n${entry("user.message", { content: "x" })}\n`);
    expect(lastAssistantText(path)).toBeNull();
  });
});

describe("isCopilotPayload: a Copilot event that reached a Claude handler", () => {
  const claudeTranscript = "/home/dev/.claude/projects/-home-dev-acme/5f0c.jsonl";
  test.each([
    ["current VS Code tool call", post("create_file", { filePath: "/w/a.ts" })],
    ["a tool we do not map, transcript in Copilot storage", post("mcp_github_get_issue", { n: 1 })],
    ["a VS Code tool id, no transcript", { timestamp: STAMP, hook_event_name: "PostToolUse", session_id: "s", tool_name: "run_in_terminal", tool_input: { command: "ls" } }],
    ["older camelCase envelope", { timestamp: STAMP, hookEventName: "UserPromptSubmit", sessionId: "s", prompt: "hi", transcript_path: claudeTranscript }],
    ["a Stop without a transcript", { timestamp: STAMP, hook_event_name: "Stop", session_id: "s", stop_hook_active: false }],
    ["a prompt with Copilot's transcript (Windows path)", { timestamp: STAMP, hook_event_name: "UserPromptSubmit", session_id: "s", prompt: "x", transcript_path: "C:\\Users\\dev\\AppData\\Roaming\\Code\\User\\workspaceStorage\\ab\\GitHub.copilot-chat\\transcripts\\s.jsonl" }],
  ])("%s → Copilot", (_label, payload) => expect(isCopilotPayload(payload)).toBe(true));

  test.each([
    ["a real Claude Code tool call", { session_id: "s", transcript_path: claudeTranscript, cwd: "/w", permission_mode: "default", hook_event_name: "PostToolUse", tool_name: "Write", tool_input: { file_path: "/w/a.ts" }, tool_response: { success: true } }],
    ["Claude Code with a timestamp one day, its own transcript and tools", { timestamp: STAMP, session_id: "s", transcript_path: claudeTranscript, hook_event_name: "PostToolUse", tool_name: "Edit", tool_input: { file_path: "/w/a.ts" } }],
    ["a timestamp plus Claude's permission_mode", { timestamp: STAMP, session_id: "s", permission_mode: "default", hook_event_name: "Stop" }],
    ["no timestamp at all", { hookEventName: "PostToolUse", sessionId: "s", tool_name: "create_file" }],
    ["a timestamp that is not ISO", { timestamp: "yesterday", hook_event_name: "Stop", session_id: "s" }],
    ["a numeric timestamp", { timestamp: 1_700_000_000_000, hook_event_name: "Stop", session_id: "s" }],
    ["Claude-shaped payload with a null transcript", { timestamp: STAMP, session_id: "s", transcript_path: null, hook_event_name: "Stop" }],
  ])("%s → not Copilot", (_label, payload) => expect(isCopilotPayload(payload as Record<string, unknown>)).toBe(false));
});

describe("routing a Copilot payload that arrives with --source=claude", () => {
  test("skipped as a duplicate: the Copilot handlers record it", () => {
    expect(routePayload("claude", post("create_file", { filePath: "/w/a.ts" }))).toEqual({ skip: "duplicate-copilot" });
    expect(routePayload("claude", { timestamp: STAMP, hook_event_name: "Stop", session_id: "s", stop_hook_active: false })).toEqual({ skip: "duplicate-copilot" });
  });

  test("other sources and real Claude payloads are never touched", () => {
    expect(routePayload("copilot", post("create_file", {}))).toEqual({ source: "copilot" });
    expect(routePayload("codex", post("create_file", {}))).toEqual({ source: "codex" });
    expect(routePayload("claude", { session_id: "s", transcript_path: "/t.jsonl", hook_event_name: "PostToolUse", tool_name: "Write" })).toEqual({ source: "claude" });
    expect(routePayload("claude", {})).toEqual({ source: "claude" });
  });
});
