/**
 * hooks:emit on its hot path (issue 3): a realistic Claude Code PostToolUse Write and a Codex apply_patch,
 * each appended to an already-open hooks session (the steady state of a working session), plus a
 * payload hooks:emit skips before touching the store.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BenchCase } from "./types.ts";

const CLAUDE_SESSION = "5f0c2d7e-1b8e-4f47-9a55-3b2a1d9c0e11";
const CODEX_SESSION = "019a4c1e-7f2b-7d10-9a3e-5b8c2d1f0e47";

const component = Array.from({ length: 60 }, (_, i) => `  const value${i} = useMemo(() => compute(${i}, props.items), [props.items]);`).join("\n");

/** The Write payload; `session` is its harness session id. */
export function claudeWrite(project: string, session = CLAUDE_SESSION): string {
  return JSON.stringify({
    session_id: session,
    transcript_path: `/home/dev/.claude/projects/-home-dev-acme/${CLAUDE_SESSION}.jsonl`,
    cwd: project,
    permission_mode: "acceptEdits",
    hook_event_name: "PostToolUse",
    tool_name: "Write",
    tool_input: { file_path: join(project, "src", "components", "CartSummary.tsx"), content: `export function CartSummary(props) {\n${component}\n  return null;\n}\n` },
    tool_response: { filePath: join(project, "src", "components", "CartSummary.tsx"), success: true },
    tool_use_id: "toolu_01Kq7sWm2Xc9LkP4",
    duration_ms: 21,
  });
}

const PATCH = [
  "*** Begin Patch",
  "*** Add File: docs/CHANGES.md",
  "+# Changes",
  "+- retries raised to 5",
  "*** Update File: src/config.ts",
  "*** Move to: src/settings.ts",
  "@@ export const defaults = {",
  "-  retries: 3,",
  "+  retries: 5,",
  "   timeoutMs: 2000,",
  "*** Update File: src/http/client.ts",
  "@@",
  "-  return fetchWithRetry(url, 3);",
  "+  return fetchWithRetry(url, defaults.retries);",
  "*** Delete File: src/legacy.ts",
  "*** End Patch",
  "",
].join("\n");

function codexPatch(project: string): string {
  return JSON.stringify({
    session_id: CODEX_SESSION,
    transcript_path: null,
    cwd: project,
    hook_event_name: "PostToolUse",
    model: "gpt-5-codex",
    permission_mode: "acceptEdits",
    turn_id: "019a4c20-11d4-7c02-8f61-0a9e3b7c4d55",
    tool_name: "apply_patch",
    tool_use_id: "call_8JdK2pQxW1",
    tool_input: { command: PATCH },
    tool_response: "Success. Updated the following files:\nA docs/CHANGES.md\nM src/settings.ts\nM src/http/client.ts\nD src/legacy.ts\n",
  });
}

const COPILOT_SESSION = "6c2f9a1e-58d3-4b7e-a0c4-2e91f7d3b865";

/** VS Code Copilot's multi-file edit: one artifact per distinct file. */
function copilotMultiReplace(project: string): string {
  return JSON.stringify({
    timestamp: "2026-11-20T14:10:07.259Z",
    hook_event_name: "PostToolUse",
    session_id: COPILOT_SESSION,
    transcript_path: `/home/dev/.config/Code/User/workspaceStorage/8f3a61c0d2/GitHub.copilot-chat/transcripts/${COPILOT_SESSION}.jsonl`,
    cwd: project,
    tool_name: "multi_replace_string_in_file",
    tool_use_id: "call_007Qx7__vscode-1707",
    tool_input: {
      explanation: "Import the helper and drop toFixed",
      replacements: [
        { filePath: join(project, "src", "invoice", "total.ts"), oldString: "import type { Line }", newString: "import { roundHalfEven } from './rounding';\nimport type { Line }", explanation: "import" },
        { filePath: join(project, "src", "invoice", "format.ts"), oldString: "amount.toFixed(2)", newString: "roundHalfEven(amount).toFixed(2)", explanation: "format" },
      ],
    },
    tool_response: `The following files were successfully edited:\n${join(project, "src", "invoice", "total.ts")}\n${join(project, "src", "invoice", "format.ts")}`,
  });
}

/** The bench runner replaces `{project}` in args and stdin: the payloads name files inside the bench project, as real ones do. */
const PROJECT = "{project}";

/** A project with an open hooks session, so every timed run appends to it. */
function openSession(payloadFor: (project: string) => string, source: string) {
  return (project: string, binary: string): void => {
    mkdirSync(join(project, ".aioson"), { recursive: true });
    writeFileSync(join(project, ".aioson", "config.md"), "# bench project\n", { flag: "a" });
    const result = Bun.spawnSync([binary, "hooks:emit", project, "--agent=dev", `--source=${source}`], { stdin: new TextEncoder().encode(payloadFor(project)) });
    if (result.exitCode !== 0) throw new Error(`hooks:emit setup exited ${result.exitCode}`);
  };
}

const cases: BenchCase[] = [
  {
    name: "hooks:emit claude PostToolUse Write",
    args: ["hooks:emit", "{project}", "--agent=dev", "--source=claude"],
    stdin: claudeWrite(PROJECT),
    setup: openSession(claudeWrite, "claude"),
    maxRatio: 2.1,
    maxRssMiB: 45,
  },
  {
    name: "hooks:emit codex apply_patch",
    args: ["hooks:emit", "{project}", "--agent=dev", "--source=codex"],
    stdin: codexPatch(PROJECT),
    setup: openSession(codexPatch, "codex"),
    maxRatio: 2.1,
    maxRssMiB: 45,
  },
  {
    name: "hooks:emit skipped (Read)",
    args: ["hooks:emit", "{project}", "--agent=dev", "--source=claude"],
    stdin: JSON.stringify({ session_id: CLAUDE_SESSION, cwd: PROJECT, hook_event_name: "PostToolUse", tool_name: "Read", tool_input: { file_path: `${PROJECT}/src/cart.ts` } }),
    setup: openSession(claudeWrite, "claude"),
    maxRatio: 2,
    maxRssMiB: 45,
  },
  {
    name: "hooks:emit copilot multi_replace_string_in_file",
    args: ["hooks:emit", "{project}", "--agent=dev", "--source=copilot"],
    stdin: copilotMultiReplace(PROJECT),
    setup: openSession(copilotMultiReplace, "copilot"),
    maxRatio: 2.1,
    maxRssMiB: 45,
  },
  {
    // VS Code runs every Claude PostToolUse handler for each Copilot tool call: this skip is paid three times per call.
    name: "hooks:emit copilot payload at a claude handler (duplicate-copilot)",
    args: ["hooks:emit", "{project}", "--agent=dev", "--source=claude"],
    stdin: copilotMultiReplace(PROJECT),
    setup: openSession(copilotMultiReplace, "copilot"),
    maxRatio: 2,
    maxRssMiB: 45,
  },
];

export default cases;
