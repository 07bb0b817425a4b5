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

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await Bun.sleep(25);
}

type Hooks = Record<string, (...args: any[]) => Promise<void>>;
async function loadPlugin(directory: string): Promise<Hooks> {
  const file = join(tempDir("aioson-plugin-"), "aioson.js");
  writeFileSync(file, opencodePluginSource("qa"));
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
    await hooks["experimental.text.complete"]!({ sessionID: "s1" }, { text: "Done: edited a.ts" });
    await until(() => calls(log).length >= before + 5);
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
    expect(stop).toMatchObject({ hook_event_name: "Stop", last_assistant_message: "Done: edited a.ts" });
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

  test("the queue holds at most 16 waiting calls and runs one at a time", async () => {
    const dir = tempDir("aioson-slowbin-");
    const slowLog = join(dir, "log");
    mkdirSync(slowLog);
    process.env.AIOSON_BIN = fakeBinary(dir, slowLog, "0.05");
    try {
      const hooks = await loadPlugin(tempProject());
      for (let i = 0; i < 30; i++) await hooks["chat.message"]!({ sessionID: "q" }, { parts: [{ type: "text", text: `m${i}` }] });
      await until(() => calls(slowLog).length >= 17);
      await Bun.sleep(400);
      const prompts = calls(slowLog).map((c) => (c.stdin as Record<string, string>).prompt);
      expect(prompts.length).toBe(17);
      expect(prompts).toEqual(Array.from({ length: 17 }, (_, i) => `m${i}`));
    } finally {
      process.env.AIOSON_BIN = bin;
    }
  });
});
