/**
 * Issue 13 item 2: a Codex 0.169 PostToolUse(Bash) carries the output only, so hooks:emit reads the exit code from
 * the rollout at `transcript_path` (a bounded tail read, src/harness/codex-rollout.ts). Timed: a 4 MiB rollout of a
 * long session whose last item is this call (the read stops at the last 1 MiB), and the same call with an exit line
 * in its output, which never opens the rollout: the difference is what the read costs.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BenchCase } from "./types.ts";

const SESSION = "01a231df-fdee-7ce0-bdd9-ac5ea16d2abe";
const TURN = "01a231df-fe07-7062-8698-5fced20a5df9";
const CALL = "call_k3Qm8sWx2Lc9";
const COMMAND = "npm run lint";
const OUTPUT = "> acme@1.0.0 lint\n> eslint src\n\nsrc/cart.ts\n  12:7  error  'total' is never reassigned  prefer-const\n\n✖ 1 problem (1 error, 0 warnings)\n";
const PROJECT = "{project}";
const ROLLOUT = "codex-rollout.jsonl";

const line = (type: string, payload: Record<string, unknown>) => JSON.stringify({ timestamp: "2026-12-01T13:51:33.047Z", ordinal: 17, type, payload });

/** Rollout lines as Codex 0.169 writes them: messages and tool calls, then this call and its completed item. */
function rollout(bytes: number): string {
  const message = line("response_item", { type: "message", role: "assistant", content: [{ type: "output_text", text: "Looking at the cart module next. ".repeat(60) }] });
  const lines: string[] = [line("session_meta", { session_id: SESSION, cwd: "/home/dev/acme", cli_version: "0.169.0" })];
  for (let size = 0; size < bytes; size += message.length + 1) lines.push(message);
  lines.push(
    line("response_item", { type: "function_call", status: "completed", id: "fc_1", name: "exec_command", arguments: JSON.stringify({ cmd: COMMAND }), call_id: CALL }),
    line("event_msg", {
      type: "item_completed",
      thread_id: SESSION,
      turn_id: TURN,
      item: { type: "CommandExecution", id: CALL, process_id: "46055", command: ["/bin/bash", "-lc", COMMAND], cwd: "file:///home/dev/acme", source: "unified_exec_startup", status: "failed", aggregated_output: OUTPUT, exit_code: 2, duration: { secs: 1, nanos: 2 } },
    }),
  );
  return `${lines.join("\n")}\n`;
}

function bash(project: string, output: string): string {
  return JSON.stringify({
    session_id: SESSION,
    turn_id: TURN,
    transcript_path: join(project, ROLLOUT),
    cwd: project,
    hook_event_name: "PostToolUse",
    model: "gpt-5.5",
    permission_mode: "bypassPermissions",
    tool_name: "Bash",
    tool_input: { command: COMMAND },
    tool_response: output,
    tool_use_id: CALL,
  });
}

/** A project with an open Codex hooks session and its rollout, so every timed run appends one step. */
function setup(project: string, binary: string): void {
  mkdirSync(join(project, ".aioson"), { recursive: true });
  writeFileSync(join(project, ".aioson", "config.md"), "# bench project\n", { flag: "a" });
  writeFileSync(join(project, ROLLOUT), rollout(4 * 1024 * 1024));
  const result = Bun.spawnSync([binary, "hooks:emit", project, "--agent=dev", "--source=codex"], { stdin: new TextEncoder().encode(bash(project, OUTPUT)) });
  if (result.exitCode !== 0) throw new Error(`hooks:emit setup exited ${result.exitCode}`);
}

const cases: BenchCase[] = [
  {
    name: "hooks:emit codex Bash, exit code from a 4 MiB rollout",
    args: ["hooks:emit", "{project}", "--agent=dev", "--source=codex"],
    stdin: bash(PROJECT, OUTPUT),
    setup,
    maxRatio: 2.1,
    maxRssMiB: 45,
  },
  {
    name: "hooks:emit codex Bash, exit line in the output (no rollout read)",
    args: ["hooks:emit", "{project}", "--agent=dev", "--source=codex"],
    stdin: bash(PROJECT, `${OUTPUT}Process exited with code 2\n`),
    setup,
    maxRatio: 2.1,
    maxRssMiB: 45,
  },
];

export default cases;
