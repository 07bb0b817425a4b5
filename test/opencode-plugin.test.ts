import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { opencodePluginSource } from "../src/install/opencode-plugin.ts";
import { cleanupTemp, tempDir, tempProject } from "./helpers.ts";

/** A stand-in `aioson` that records each call's argv and stdin, and answers hooks:recap with a checkpoint. */
function fakeBinary(dir: string, log: string, delay = "0"): string {
  const path = join(dir, "fake-aioson.sh");
  writeFileSync(path, `#!/bin/sh
n=$(date +%s%N)-$$
sleep ${delay}
cat > "${log}/$n.stdin"
printf '%s\\n' "$@" > "${log}/$n.argv.tmp" && mv "${log}/$n.argv.tmp" "${log}/$n.argv"
if [ "$1" = "hooks:recap" ]; then printf '{"additionalContext":"CHECKPOINT for %s"}' "$6"; fi
`);
  chmodSync(path, 0o755);
  return path;
}

type Call = { argv: string[]; stdin: unknown };
function calls(log: string): Call[] {
  return readdirSync(log).filter((f) => f.endsWith(".argv")).sort().map((f) => ({
    argv: readFileSync(join(log, f), "utf8").trim().split("\n"),
    stdin: JSON.parse(readFileSync(join(log, f.replace(".argv", ".stdin")), "utf8") || "null"),
  }));
}

type Hooks = Record<string, (...args: any[]) => Promise<void>>;

/** One assistant message as OpenCode 1.18.33 reports it: message.updated, a tool part when it calls tools, its text. */
async function answer(hooks: Hooks, sessionID: string, messageID: string, text: string, options: { tools?: boolean; summary?: boolean } = {}): Promise<void> {
  const info = options.summary ? { agent: "compaction", mode: "compaction", summary: true } : { agent: "build", mode: "build" };
  await hooks.event!({ event: { type: "message.updated", properties: { sessionID, info: { id: messageID, sessionID, role: "assistant", ...info } } } });
  if (options.tools) await hooks.event!({ event: { type: "message.part.updated", properties: { sessionID, part: { id: `${messageID}-t`, messageID, sessionID, type: "tool", tool: "write" } } } });
  await hooks["experimental.text.complete"]!({ sessionID, messageID, partID: `${messageID}-x` }, { text });
}

/** The end of a turn: OpenCode sends session.status idle, then session.idle. */
async function idle(hooks: Hooks, sessionID: string): Promise<void> {
  await hooks.event!({ event: { type: "session.status", properties: { sessionID, status: { type: "idle" } } } });
  await hooks.event!({ event: { type: "session.idle", properties: { sessionID } } });
}
async function loadPlugin(directory: string, edit: (text: string) => string = (text) => text): Promise<Hooks> {
  const file = join(tempDir("aioson-plugin-"), "aioson.js");
  writeFileSync(file, edit(opencodePluginSource("qa")));
  const mod = await import(file);
  expect(Object.keys(mod)).toEqual(["AiosonPlugin"]);
  return mod.AiosonPlugin({ directory, worktree: directory, client: {}, project: {} });
}

let log = "";
let bin = "";
beforeAll(() => {
  const dir = tempDir("aioson-fakebin-");
  log = join(dir, "log");
  mkdirSync(log);
  bin = fakeBinary(dir, log);
  process.env.AIOSON_BIN = bin;
});
afterAll(() => {
  delete process.env.AIOSON_BIN;
  cleanupTemp();
});

describe("OpenCode plugin", () => {
  test("outside a project it returns no hooks and spawns nothing", async () => {
    const hooks = await loadPlugin(tempDir());
    expect(hooks).toEqual({});
  });

  test("tool, prompt and answer hooks enqueue Claude-shaped payloads for hooks:emit, with caps", async () => {
    const project = tempProject();
    const hooks = await loadPlugin(join(project));
    const before = calls(log).length;
    await hooks["tool.execute.after"]!({ tool: "edit", sessionID: "s1", callID: "c", args: { filePath: "src/a.ts" } }, { output: "", metadata: {} });
    await hooks["tool.execute.after"]!({ tool: "bash", sessionID: "s1", callID: "c", args: { command: "npm test" } }, { output: "x".repeat(5000) + "END", metadata: { exit: 1 } });
    await hooks["tool.execute.after"]!({ tool: "apply_patch", sessionID: "s1", callID: "c", args: { patchText: "*** Begin Patch\n*** Update File: a.ts\n@@\n-x\n+y\n*** End Patch" } }, { output: "", metadata: {} });
    await hooks["tool.execute.after"]!({ tool: "read", sessionID: "s1", callID: "c", args: {} }, { output: "" });
    await hooks["chat.message"]!({ sessionID: "s1" }, { message: {}, parts: [{ type: "text", text: "/dev " + "p".repeat(9000) }] });
    await answer(hooks, "s1", "m1", "Done: edited a.ts");
    await idle(hooks, "s1");
    await hooks.dispose!();
    const got = calls(log).slice(before);
    expect(got.length).toBe(5);
    expect(got.every((c) => c.argv.join(" ") === `hooks:emit ${project} --agent=qa --source=opencode`)).toBe(true);
    const [edit, bash, patch, prompt, stop] = got.map((c) => c.stdin as Record<string, any>);
    expect(edit).toMatchObject({ hook_event_name: "PostToolUse", session_id: "s1", cwd: project, tool_name: "Edit", tool_input: { file_path: "src/a.ts" } });
    expect(bash!.tool_response.exit_code).toBe(1);
    expect(bash!.tool_response.output_tail.length).toBe(4000);
    expect(bash!.tool_response.output_tail).toEndWith("END");
    expect(patch!.tool_input.command).toBe("*** Begin Patch\n*** Update File: a.ts\n*** End Patch");
    expect(prompt!.prompt.length).toBe(8000);
    expect(prompt!.prompt).toEndWith("…[truncated]");
    expect(stop).toEqual({ hook_event_name: "Stop", session_id: "s1", last_assistant_message: "Done: edited a.ts", cwd: project });
  });

  test("the agent message is the last assistant message's text once the session is idle: never a preamble before tool calls", async () => {
    const hooks = await loadPlugin(tempProject());
    const before = calls(log).length;
    await answer(hooks, "s2", "m1", "I will edit a.ts first.", { tools: true });
    await answer(hooks, "s2", "m2", "Now the test.", { tools: true });
    await answer(hooks, "s2", "m3", "All green:");
    await answer(hooks, "s2", "m3", "a.ts is fixed.");
    await idle(hooks, "s2");
    // A turn whose last message only called tools (stopped by the user) has no answer to record.
    await answer(hooks, "s2", "m4", "Let me look at b.ts.", { tools: true });
    await hooks.event!({ event: { type: "message.updated", properties: { sessionID: "s2", info: { id: "m5", sessionID: "s2", role: "assistant", agent: "build", mode: "build" } } } });
    await idle(hooks, "s2");
    // A turn OpenCode never reported idle (interrupted) ends at dispose() with its last message's text, below.
    await answer(hooks, "s4", "y1", "Interrupted, but this was the last word.");
    // Another session's turn is its own.
    await answer(hooks, "s3", "x1", "Other session answer.");
    await answer(hooks, "s2", "m6", "Second turn answer.");
    await idle(hooks, "s3");
    await idle(hooks, "s2");
    await hooks.dispose!();
    const stops = calls(log).slice(before).map((c) => c.stdin as Record<string, string>);
    expect(stops.map((stop) => [stop.hook_event_name, stop.session_id, stop.last_assistant_message])).toEqual([
      ["Stop", "s2", "All green:\na.ts is fixed."],
      ["Stop", "s3", "Other session answer."],
      ["Stop", "s2", "Second turn answer."],
      ["Stop", "s4", "Interrupted, but this was the last word."],
    ]);
  });

  test("a task sub-agent's tool calls belong to the session that launched it; its prompt and final text are not the agent's", async () => {
    const hooks = await loadPlugin(tempProject());
    const before = calls(log).length;
    await hooks.event!({ event: { type: "session.created", properties: { sessionID: "child", info: { id: "child", parentID: "parent", title: "write b (@general subagent)" } } } });
    await hooks.event!({ event: { type: "session.created", properties: { sessionID: "grandchild", info: { id: "grandchild", parentID: "child" } } } });
    await hooks["chat.message"]!({ sessionID: "child", agent: "general" }, { parts: [{ type: "text", text: "/qa write b.txt" }] });
    await hooks["tool.execute.after"]!({ tool: "write", sessionID: "child", callID: "c1", args: { filePath: "b.txt" } }, { output: "", metadata: {} });
    await hooks["tool.execute.after"]!({ tool: "bash", sessionID: "grandchild", callID: "c2", args: { command: "ls" } }, { output: "", metadata: { exit: 0 } });
    await answer(hooks, "child", "cm1", "Sub-agent finished: wrote b.txt.");
    await idle(hooks, "child");
    await hooks["tool.execute.after"]!({ tool: "task", sessionID: "parent", callID: "c0", args: { description: "write b", prompt: "write b.txt", subagent_type: "general" } }, { output: "", metadata: {} });
    await answer(hooks, "parent", "pm1", "Parent done.");
    await idle(hooks, "parent");
    await hooks.dispose!();
    const got = calls(log).slice(before).map((c) => c.stdin as Record<string, any>);
    expect(got.map((p) => [p.hook_event_name, p.session_id, p.tool_name ?? p.last_assistant_message])).toEqual([
      ["PostToolUse", "parent", "Write"],
      ["PostToolUse", "parent", "Bash"],
      ["PostToolUse", "parent", "Task"],
      ["Stop", "parent", "Parent done."],
    ]);
  });

  test("the compaction agent's summary is never the agent message; OpenCode's auto flag names the trigger", async () => {
    const project = tempProject();
    const hooks = await loadPlugin(project);
    const before = calls(log).length;
    // Manual (/compact, POST /session/{id}/summarize): the compaction part says auto: false.
    await hooks.event!({ event: { type: "message.part.updated", properties: { sessionID: "c1", part: { id: "p1", messageID: "u1", sessionID: "c1", type: "compaction", auto: false, overflow: false } } } });
    await hooks["experimental.session.compacting"]!({ sessionID: "c1" }, { context: [] });
    await answer(hooks, "c1", "sum1", "SUMMARY of the work so far.", { summary: true });
    await hooks.event!({ event: { type: "session.compacted", properties: { sessionID: "c1" } } });
    await idle(hooks, "c1");
    // Automatic: auto: true, and a summary whose message.updated never arrived is still recognised (the hook came first).
    await hooks.event!({ event: { type: "message.part.updated", properties: { sessionID: "c1", part: { id: "p2", messageID: "u2", sessionID: "c1", type: "compaction", auto: true, overflow: false } } } });
    await hooks["experimental.session.compacting"]!({ sessionID: "c1" }, { context: [] });
    await hooks["experimental.text.complete"]!({ sessionID: "c1", messageID: "sum2", partID: "t" }, { text: "SUMMARY again." });
    await hooks.event!({ event: { type: "session.compacted", properties: { sessionID: "c1" } } });
    await answer(hooks, "c1", "after", "Continued after the compaction: done.");
    await idle(hooks, "c1");
    await hooks.dispose!();
    const got = calls(log).slice(before).filter((c) => c.argv[0] === "hooks:emit").map((c) => c.stdin as Record<string, string>);
    expect(got.map((p) => [p.hook_event_name, p.trigger ?? p.last_assistant_message])).toEqual([
      ["PreCompact", "manual"],
      ["PreCompact", "auto"],
      ["Stop", "Continued after the compaction: done."],
    ]);
  });

  test("compaction: PreCompact emit, then the recap goes into the summary prompt and the next system prompt once", async () => {
    const project = tempProject();
    const hooks = await loadPlugin(project);
    const before = calls(log).length;
    const output = { context: [] as string[] };
    await hooks["experimental.session.compacting"]!({ sessionID: "s9" }, output);
    expect(output.context).toEqual(["CHECKPOINT for --session=s9"]);
    const got = calls(log).slice(before);
    expect(got.map((c) => c.argv[0])).toEqual(["hooks:emit", "hooks:recap"]);
    expect(got[0]!.stdin).toMatchObject({ hook_event_name: "PreCompact", session_id: "s9" });
    expect(got[1]!.argv).toEqual(["hooks:recap", project, "--agent=qa", "--source=opencode", "--when=always", "--session=s9", "--json"]);
    const system = { system: [] as string[] };
    await hooks["experimental.chat.system.transform"]!({ sessionID: "s9" }, system);
    expect(system.system).toEqual([]);
    await hooks.event!({ event: { type: "session.compacted", properties: { sessionID: "s9" } } });
    await hooks["experimental.chat.system.transform"]!({ sessionID: "s9" }, system);
    await hooks["experimental.chat.system.transform"]!({ sessionID: "s9" }, system);
    expect(system.system).toEqual(["CHECKPOINT for --session=s9"]);
  });

  test("a missing or broken binary never throws into OpenCode", async () => {
    const project = tempProject();
    const hooks = await loadPlugin(project);
    process.env.AIOSON_BIN = join(project, "no-such-binary");
    try {
      const output = { context: [] as string[] };
      await hooks["tool.execute.after"]!({ tool: "write", sessionID: "s", args: { filePath: "a" } }, null);
      await hooks["experimental.session.compacting"]!({ sessionID: "s" }, output);
      await hooks["chat.message"]!(null, null);
      expect(output.context).toEqual([]);
    } finally {
      process.env.AIOSON_BIN = bin;
    }
  });

  test("dispose() hands everything still queued to aioson before OpenCode exits (12 parallel writes, 250 ms per call)", async () => {
    const dir = tempDir("aioson-slowbin-");
    const slowLog = join(dir, "log");
    mkdirSync(slowLog);
    process.env.AIOSON_BIN = fakeBinary(dir, slowLog, "0.25");
    try {
      const hooks = await loadPlugin(tempProject());
      await hooks["chat.message"]!({ sessionID: "b" }, { parts: [{ type: "text", text: "write twelve files" }] });
      await Promise.all(Array.from({ length: 12 }, (_, i) => hooks["tool.execute.after"]!({ tool: "write", sessionID: "b", callID: `c${i}`, args: { filePath: `f${i}.txt` } }, { output: "", metadata: {} })));
      expect(calls(slowLog).length).toBeLessThan(13);
      await hooks.dispose!();
      const got = calls(slowLog).map((c) => c.stdin as Record<string, any>);
      expect(got.map((p) => p.tool_input?.file_path ?? p.prompt)).toEqual(["write twelve files", ...Array.from({ length: 12 }, (_, i) => `f${i}.txt`)]);
      expect(got.some((p) => "aioson_dropped" in p)).toBe(false);
    } finally {
      process.env.AIOSON_BIN = bin;
    }
  }, 60_000);

  test("the queue holds at most 16 waiting calls, runs one at a time, and the next call carries the count it dropped", async () => {
    const dir = tempDir("aioson-slowbin-");
    const slowLog = join(dir, "log");
    mkdirSync(slowLog);
    process.env.AIOSON_BIN = fakeBinary(dir, slowLog, "0.05");
    try {
      const hooks = await loadPlugin(tempProject());
      for (let i = 0; i < 30; i++) await hooks["chat.message"]!({ sessionID: "q" }, { parts: [{ type: "text", text: `m${i}` }] });
      await hooks.dispose!();
      const got = calls(slowLog).map((c) => c.stdin as Record<string, any>);
      // m0 was running, m1..m16 waited, m17..m29 were turned away: the call after the drops says so.
      expect(got.map((p) => p.prompt)).toEqual(Array.from({ length: 17 }, (_, i) => `m${i}`));
      expect(got.map((p) => p.aioson_dropped ?? 0)).toEqual([0, 13, ...Array.from({ length: 15 }, () => 0)]);
    } finally {
      process.env.AIOSON_BIN = bin;
    }
  }, 60_000);

  test("dispose() gives the queue up once a call hits the per-call limit (a hanging aioson cannot hold OpenCode's exit)", async () => {
    const dir = tempDir("aioson-hangbin-");
    const started = join(dir, "started");
    const hang = join(dir, "hang.sh");
    writeFileSync(hang, `#!/bin/sh\necho "$1" >> "${started}"\nexec sleep 30\n`);
    chmodSync(hang, 0o755);
    process.env.AIOSON_BIN = hang;
    try {
      // The same plugin with a 300 ms per-call limit instead of 15 s, so the test does not wait 15 s.
      const hooks = await loadPlugin(tempProject(), (text) => text.replace("const CALL_MS = 15000;", "const CALL_MS = 300;"));
      for (let i = 0; i < 5; i++) await hooks["tool.execute.after"]!({ tool: "write", sessionID: "h", callID: `c${i}`, args: { filePath: `f${i}` } }, { output: "", metadata: {} });
      await hooks.dispose!();
      expect(readFileSync(started, "utf8").trim().split("\n")).toEqual(["hooks:emit"]);
    } finally {
      process.env.AIOSON_BIN = bin;
    }
  });

  test("with aioson missing, dispose() returns at once and nothing throws", async () => {
    const hooks = await loadPlugin(tempProject());
    process.env.AIOSON_BIN = "/nonexistent/aioson";
    try {
      for (let i = 0; i < 20; i++) await hooks["tool.execute.after"]!({ tool: "write", sessionID: "n", callID: `c${i}`, args: { filePath: `f${i}` } }, { output: "", metadata: {} });
      await answer(hooks, "n", "m1", "done");
      await idle(hooks, "n");
      await expect(hooks.dispose!()).resolves.toBeUndefined();
    } finally {
      process.env.AIOSON_BIN = bin;
    }
  });
});
