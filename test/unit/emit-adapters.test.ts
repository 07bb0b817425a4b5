import { describe, expect, test } from "bun:test";
import { adapterFor } from "../../src/harness/index.ts";
import { promptActivation, skillActivation } from "../../src/emit/activation.ts";
import { classify, eventName } from "../../src/emit/classify.ts";
import type { HookEvent } from "../../src/harness/types.ts";
import { afterAll } from "bun:test";
import { cleanupTemp, tempProject } from "../helpers.ts";

afterAll(cleanupTemp);

describe("adapters", () => {
  test("Claude snake_case and camelCase land the same", () => {
    const snake = adapterFor("claude")({ hook_event_name: "PostToolUse", session_id: "S", tool_name: "Write", tool_input: { file_path: "/p/a.ts" } });
    const camel = adapterFor("claude")({ hookEventName: "PostToolUse", sessionId: "S", toolName: "Write", toolInput: { filePath: "/p/a.ts" } });
    expect(camel).toEqual(snake);
    expect(snake.tool).toMatchObject({ name: "Write", filePath: "/p/a.ts" });
  });

  test("wrong-typed fields become absent instead of throwing", () => {
    const event = adapterFor("claude")({ hook_event_name: 7, session_id: ["x"], tool_name: "Bash", tool_input: "nope", tool_response: 42, prompt: {}, cwd: null });
    expect(event).toMatchObject({ event: null, sessionId: null, cwd: null, prompt: null, response: null });
    expect(event.tool).toMatchObject({ name: "Bash", command: null });
  });

  test("Claude Agent/PowerShell map onto Task/Bash", () => {
    expect(adapterFor("claude")({ tool_name: "Agent", tool_input: { description: "d" } }).tool?.name).toBe("Task");
    expect(adapterFor("claude")({ tool_name: "PowerShell", tool_input: { command: "dir" } }).tool?.name).toBe("Bash");
  });

  test("Codex: string or object response, command arrays, patch under input", () => {
    const codex = adapterFor("codex");
    expect(codex({ tool_name: "Bash", tool_input: { command: ["bash", "-lc", "npm test"] }, tool_response: "ok" })).toMatchObject({
      tool: { name: "Bash", command: "npm test" },
      response: { text: "ok", structured: false, exitCode: null },
    });
    expect(codex({ tool_name: "shell", tool_input: { command: ["ls", "-la"] }, tool_response: { output: "x", exit_code: 3 } })).toMatchObject({
      tool: { name: "Bash", command: "ls -la" },
      response: { text: "x", exitCode: 3, structured: true },
    });
    expect(codex({ tool_name: "apply_patch", tool_input: { command: ["apply_patch", "*** Begin Patch\n*** Add File: a\n*** End Patch"] } }).tool?.patch).toContain("*** Add File: a");
    expect(codex({ tool_name: "apply_patch", tool_input: { input: "*** Begin Patch\n*** Add File: b\n" } }).tool?.patch).toContain("Add File: b");
  });

  test("OpenCode: sessionID, lower-case tools, exit_code/output_tail", () => {
    const event = adapterFor("opencode")({ hook_event_name: "PostToolUse", sessionID: "ses_1", tool_name: "bash", tool_input: { command: "npm test" }, tool_response: { exit_code: 1, output_tail: "1 failed" } });
    expect(event).toMatchObject({ sessionId: "ses_1", tool: { name: "Bash" }, response: { exitCode: 1, text: "1 failed" } });
    expect(adapterFor("opencode")({ tool_name: "write", tool_input: { filePath: "/p/x.ts" } }).tool).toMatchObject({ name: "Write", filePath: "/p/x.ts" });
  });

  test("Antigravity: camelCase, toolCall with PascalCase args, error → failure, Stop inference", () => {
    const ag = adapterFor("antigravity");
    expect(ag({ conversationId: "c1", toolCall: { name: "run_command", args: { CommandLine: "npm test", Cwd: "/p" } }, error: "exit status 1" })).toMatchObject({
      sessionId: "c1",
      event: "PostToolUseFailure",
      tool: { name: "Bash", command: "npm test" },
      error: "exit status 1",
    });
    expect(ag({ conversationId: "c1", toolCall: { name: "write_to_file", args: { TargetFile: "/p/a.ts" } } }).tool).toMatchObject({ name: "Write", filePath: "/p/a.ts" });
    expect(ag({ conversationId: "c1", terminationReason: "done", fullyIdle: true }).event).toBe("Stop");
    expect(ag({ hookEventName: "PostToolUse", sessionId: "s", toolName: "Edit", toolInput: { file_path: "/p/b.ts" } })).toMatchObject({ event: "PostToolUse", tool: { name: "Edit" } });
  });

  test("unknown sources use the Claude adapter", () => {
    expect(adapterFor("cursor")({ tool_name: "Agent" }).tool?.name).toBe("Task");
  });
});

describe("event names", () => {
  const empty: HookEvent = adapterFor("claude")({});
  test("flag, payload, inference", () => {
    expect(eventName("sessionend", empty)).toBe("SessionEnd");
    expect(eventName(null, { ...empty, event: "PreCompact" })).toBe("PreCompact");
    expect(eventName(null, adapterFor("claude")({ tool_name: "Write" }))).toBe("PostToolUse");
    expect(eventName(null, adapterFor("claude")({ prompt: "hi" }))).toBe("UserPromptSubmit");
    expect(eventName(null, empty)).toBeNull();
  });
});

describe("activation (spec 4.9)", () => {
  const root = tempProject({ ".aioson/agents/reviewer.md": "x" });
  test.each([
    ["/aioson:agent:qa review", "qa"],
    ["please run /aioson:agent:briefing-refiner now", "refiner"],
    ["@qa check it", "qa"],
    ["\n\n  /dev, fix it", "dev"],
    ["@pair", "deyvin"],
    ["/reviewer", "reviewer"],
  ])("%p → %s", (prompt, agent) => expect(promptActivation(root, prompt)).toBe(agent));
  test.each(["@types/node is broken", "/compact", "/help me", "hello @qa", "@qa2 x", "email me@qa.com"])("%p activates nothing", (prompt) =>
    expect(promptActivation(root, prompt)).toBeNull(),
  );
  test("skills", () => {
    expect(skillActivation("aioson:agent:planner")).toBe("planner");
    expect(skillActivation("/aioson:agent:QA")).toBe("qa");
    expect(skillActivation("pdf")).toBeNull();
  });
});

describe("classify", () => {
  const root = tempProject();
  const run = (payload: Record<string, unknown>, source = "claude", flag: string | null = null) => {
    const event = adapterFor(source)(payload);
    return classify({ root, source, eventName: eventName(flag, event) }, event);
  };
  test("plan statuses and caps", () => {
    const todos = Array.from({ length: 60 }, (_, i) => ({ content: "c".repeat(300), status: i % 2 ? "done" : "active" }));
    const [record] = run({ tool_name: "TodoWrite", tool_input: { todos } });
    expect(record?.payload).toMatchObject({ done: 30, total: 60, summary: "Tasks: 30 of 60 done" });
    const items = record?.payload.todos as Array<{ content: string; status: string }>;
    expect(items).toHaveLength(50);
    expect(items[0]?.content.length).toBe(200);
    expect(items[0]?.status).toBe("in_progress");
  });
  test("every stored string is redacted", () => {
    const [record] = run({ tool_name: "Bash", tool_input: { command: "curl -H 'Authorization: Bearer abcdefghijklmnopqrstuv' https://x" }, tool_response: { stdout: "", interrupted: false } });
    expect(JSON.stringify(record)).not.toContain("abcdefghijklmnop");
    const [stop] = run({ hook_event_name: "Stop", last_assistant_message: "use PGPASSWORD=hunter2 psql" });
    expect(JSON.stringify(stop)).not.toContain("hunter2");
  });
  test("a failed Bash keeps a capped error", () => {
    const [record] = run({ tool_name: "Bash", tool_input: { command: "ls" }, tool_response: `${"x".repeat(2000)}\nProcess exited with code 1` }, "codex");
    expect(record?.payload.outcome).toBe("failed");
    expect((record?.payload.error as string).length).toBe(500);
  });
  test("a test summary is redacted before it is capped at 200 characters", () => {
    // The key straddles the cut: capping first would leave "sk-abcd" behind.
    const line = `${"x".repeat(180)} sk-abcdefghijklmnopqrstuvwxyz ${"y".repeat(30)} 5 passed`;
    const [record] = run({ tool_name: "Bash", tool_input: { command: "npm test" }, tool_response: line }, "codex");
    const summary = record?.payload.summary as string;
    expect(summary.length).toBe(200);
    expect(summary.endsWith("…[truncated]")).toBe(true);
    expect(summary).not.toContain("sk-ab");
  });
  test("commands are capped at 2,000 characters with a mark", () => {
    const [record] = run({ tool_name: "Bash", tool_input: { command: `echo ${"z".repeat(5000)}` } }, "codex");
    expect((record?.payload.command as string).length).toBe(2000);
    expect((record?.payload.command as string).endsWith("…[truncated]")).toBe(true);
  });
});
