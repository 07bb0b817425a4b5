/**
 * Helpers of the export tests: the binary run asynchronously (the loopback receiver lives in the test process, so a
 * synchronous spawn would keep it from answering), a temp HOME with a user config file, and a session recorded
 * through the real `hooks:emit` with payloads shaped like each harness's.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, runAioson, tempDir, testEnv, type RunResult } from "../helpers.ts";

export type AsyncRun = { args: readonly string[]; cwd: string; home: string; env?: Record<string, string | undefined>; stdin?: string };

/** The environment of an export run: none of the developer's OTEL_* settings leak in. */
export function otelEnv(home: string, extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env = testEnv(home, {});
  for (const key of Object.keys(env)) if (key.startsWith("OTEL_")) delete env[key];
  env.XDG_CONFIG_HOME = join(home, ".config");
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

export async function runAsync(run: AsyncRun): Promise<RunResult> {
  const child = Bun.spawn([BINARY, ...run.args], {
    cwd: run.cwd,
    env: otelEnv(run.home, run.env),
    stdin: run.stdin === undefined ? "ignore" : new TextEncoder().encode(run.stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  const timer = setTimeout(() => child.kill(), 60_000);
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  clearTimeout(timer);
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch {
    json = undefined;
  }
  return { code, stdout, stderr, json };
}

/** A temp HOME whose user-level aioson config holds `config` (XDG_CONFIG_HOME points into it). */
export function homeWithConfig(config: Record<string, unknown> | null): string {
  const home = tempDir("aioson-home-");
  if (config) {
    mkdirSync(join(home, ".config", "aioson"), { recursive: true });
    writeFileSync(join(home, ".config", "aioson", "config.json"), JSON.stringify(config));
  }
  return home;
}

export const CLAUDE_SESSION = "5f0c2d7e-1b8e-4f47-9a55-3b2a1d9c0e11";
export const CODEX_SESSION = "019a4c1e-7f2b-7d10-9a3e-5b8c2d1f0e47";
export const OPENCODE_SESSION = "ses_7a1c2e9f0b3dFFq2W1";
export const COPILOT_SESSION = "6c2f9a1e-58d3-4b7e-a0c4-2e91f7d3b865";

/** The tool calls of `sessionHooks` that hooks:emit records: the spans its export carries. */
export const SESSION_SPANS = 9;

export const SECRET = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";

/** One hook call: `hooks:emit` unless `command` names a guard. */
type Hook = { source: string; payload: Record<string, unknown>; flags?: string[]; command?: string };

/** A working session of four harnesses in one project, as their hooks deliver it. */
export function sessionHooks(project: string): Hook[] {
  const file = (rel: string) => join(project, rel);
  return [
    { source: "claude", payload: { session_id: CLAUDE_SESSION, cwd: project, hook_event_name: "UserPromptSubmit", prompt: "/dev fix the cart total" } },
    {
      source: "claude",
      payload: {
        session_id: CLAUDE_SESSION, transcript_path: "/tmp/none.jsonl", cwd: project, permission_mode: "acceptEdits", hook_event_name: "PostToolUse",
        tool_name: "Write", tool_input: { file_path: file("src/cart/total.ts"), content: "export const total = 1;\n" },
        tool_response: { filePath: file("src/cart/total.ts"), success: true }, tool_use_id: "toolu_01", duration_ms: 21,
      },
    },
    {
      source: "claude",
      payload: {
        session_id: CLAUDE_SESSION, cwd: project, hook_event_name: "PostToolUse", tool_name: "Bash",
        tool_input: { command: `GITHUB_TOKEN=${SECRET} npm test -- cart`, description: "Run the cart tests" },
        tool_response: { stdout: "Tests: 1 failed, 11 passed, 12 total", stderr: "", interrupted: false }, tool_use_id: "toolu_02", duration_ms: 1834,
      },
    },
    {
      source: "claude",
      payload: { session_id: CLAUDE_SESSION, cwd: project, hook_event_name: "PostToolUseFailure", tool_name: "Bash", tool_input: { command: "npm run lint" }, error: "Exit code 2\nlint failed", is_interrupt: false, duration_ms: 950 },
    },
    {
      source: "claude",
      payload: {
        session_id: CLAUDE_SESSION, cwd: project, hook_event_name: "PostToolUse", tool_name: "TodoWrite",
        tool_input: { todos: [{ content: "Fix rounding in total()", status: "completed" }, { content: "Add a test for coupons", status: "in_progress" }] }, duration_ms: 3,
      },
    },
    // Claude Code 2.1.3xx keeps its plan task by task (real-harnesses §1); TaskCreated fires before the TaskCreate call returns.
    { source: "claude", payload: { session_id: CLAUDE_SESSION, cwd: project, hook_event_name: "TaskCreated", task_id: "3", task_subject: "Add a coupon test", task_description: "Cover the 10% coupon" } },
    {
      source: "claude",
      payload: {
        session_id: CLAUDE_SESSION, cwd: project, hook_event_name: "PostToolUse", tool_name: "TaskCreate",
        tool_input: { subject: "Add a coupon test", description: "Cover the 10% coupon", activeForm: "Adding a coupon test" }, tool_response: { task: { id: "3", subject: "Add a coupon test" } }, duration_ms: 2,
      },
    },
    {
      source: "claude",
      payload: { session_id: CLAUDE_SESSION, cwd: project, hook_event_name: "PostToolUse", tool_name: "TaskUpdate", tool_input: { taskId: "3", status: "completed" }, tool_response: { taskId: "3", statusChange: { from: "pending", to: "completed" } }, duration_ms: 1 },
    },
    // A guard's decision (a guard_decision row): the commit message is not a Conventional Commit.
    { source: "claude", command: "guard:pre-commit-guard", payload: { session_id: CLAUDE_SESSION, cwd: project, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: 'git commit -m "added stuff"' } } },
    { source: "claude", payload: { session_id: CLAUDE_SESSION, cwd: project, hook_event_name: "PreCompact", trigger: "auto", custom_instructions: null } },
    { source: "claude", payload: { session_id: CLAUDE_SESSION, cwd: project, hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: "Fixed the rounding in src/cart/total.ts; one coupon test still fails." }, flags: ["--then=agent:done"] },
    {
      source: "codex",
      payload: {
        session_id: CODEX_SESSION, transcript_path: null, cwd: project, hook_event_name: "PostToolUse", model: "gpt-5.5", turn_id: "t1", tool_name: "apply_patch", tool_use_id: "call_1",
        tool_input: { command: "*** Begin Patch\n*** Add File: docs/CHANGES.md\n+# Changes\n*** Update File: src/config.ts\n@@\n-a\n+b\n*** End Patch\n" },
        tool_response: "Exit code: 0\nWall time: 0.1 seconds\nOutput:\nSuccess. Updated the following files:\nA docs/CHANGES.md\nM src/config.ts\n",
      },
    },
    {
      source: "codex",
      payload: { session_id: CODEX_SESSION, cwd: project, hook_event_name: "PostToolUse", turn_id: "t1", tool_name: "update_plan", tool_input: { plan: [{ step: "Raise retries", status: "completed" }] }, tool_response: "Plan updated" },
    },
    { source: "codex", payload: { session_id: CODEX_SESSION, cwd: project, hook_event_name: "PreCompact", turn_id: "t2", trigger: "manual" } },
    { source: "codex", payload: { session_id: CODEX_SESSION, transcript_path: "/tmp/none", cwd: project, hook_event_name: "SessionEnd", reason: "exit" }, flags: ["--event=SessionEnd"] },
    // What the OpenCode plugin (src/install/opencode-plugin.ts) hands hooks:emit for a bash call.
    { source: "opencode", payload: { hook_event_name: "PostToolUse", session_id: OPENCODE_SESSION, tool_name: "Bash", tool_input: { command: "git status", description: "Status" }, tool_response: { exit_code: 0, output_tail: "clean" } } },
    {
      source: "copilot",
      payload: {
        timestamp: "2026-11-20T14:10:07.259Z", hook_event_name: "PostToolUse", session_id: COPILOT_SESSION, cwd: project, tool_name: "create_file",
        tool_input: { filePath: file("src/invoice/total.ts"), content: "x" }, tool_response: "created",
      },
    },
  ];
}

/** Records the session through the real binary, with the automatic export off (the test exports when it wants). */
export function recordSession(project: string, home: string): void {
  for (const hook of sessionHooks(project)) {
    const args = hook.command ? [hook.command, project, `--source=${hook.source}`] : ["hooks:emit", project, "--agent=dev", `--source=${hook.source}`, ...(hook.flags ?? [])];
    const result = runAioson(args, { stdin: JSON.stringify(hook.payload), home, cwd: project, env: { XDG_CONFIG_HOME: join(home, ".config"), OTEL_SDK_DISABLED: "true" } });
    if (result.code !== 0) throw new Error(`hooks:emit exited ${result.code}: ${result.stderr}`);
  }
}

/** Waits (polling) until `done()` holds or the time is up; returns whether it held. */
export async function eventually(done: () => boolean, timeoutMs = 15_000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (done()) return true;
    await Bun.sleep(50);
  }
  return done();
}
