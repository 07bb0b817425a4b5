/**
 * The calls the OpenCode plugin makes (issue 14), with payloads as the plugin builds them: a Write appended to an
 * open hooks session (the queue's steady state), the `opencode run` prompt it wraps in quotes, and the
 * pre-commit-guard call for `npm test` — what every bash call paid before the plugin learned to skip lines that
 * cannot run git (its median is the saving per skipped call, before OpenCode's own spawn cost).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BenchCase } from "./types.ts";

const SESSION = "ses_dce1d0ec4ffeqyzr9xm7QC2dAh";
const PROJECT = "{project}";

function write(project: string): string {
  return JSON.stringify({ hook_event_name: "PostToolUse", session_id: SESSION, tool_name: "Write", tool_input: { file_path: "src/components/CartSummary.tsx" }, cwd: project });
}

function openSession(project: string, binary: string): void {
  mkdirSync(join(project, ".aioson"), { recursive: true });
  writeFileSync(join(project, ".aioson", "config.md"), "# bench project\n", { flag: "a" });
  const result = Bun.spawnSync([binary, "hooks:emit", project, "--agent=dev", "--source=opencode"], { stdin: new TextEncoder().encode(write(project)) });
  if (result.exitCode !== 0) throw new Error(`hooks:emit setup exited ${result.exitCode}`);
}

const cases: BenchCase[] = [
  {
    name: "hooks:emit opencode PostToolUse Write (plugin payload)",
    args: ["hooks:emit", PROJECT, "--agent=dev", "--source=opencode"],
    stdin: write(PROJECT),
    setup: openSession,
    maxRatio: 2.1,
    maxRssMiB: 45,
  },
  {
    name: 'hooks:emit opencode prompt "/dev fix it" (opencode run quotes)',
    args: ["hooks:emit", PROJECT, "--agent=dev", "--source=opencode"],
    stdin: JSON.stringify({ hook_event_name: "UserPromptSubmit", session_id: SESSION, prompt: '"/dev fix the cart totals"', cwd: PROJECT }),
    setup: openSession,
    maxRatio: 2.1,
    maxRssMiB: 45,
  },
  {
    name: "guard:pre-commit-guard opencode npm test (now skipped by the plugin)",
    args: ["guard:pre-commit-guard", PROJECT, "--tool=opencode"],
    stdin: JSON.stringify({ hook_event_name: "PreToolUse", session_id: SESSION, tool_name: "bash", tool_input: { command: "npm test" }, cwd: PROJECT }),
    maxRatio: 2,
  },
];

export default cases;
