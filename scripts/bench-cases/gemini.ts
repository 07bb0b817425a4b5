/**
 * Gemini CLI (issue 15): its BeforeModel hook runs before every model call, so finding a compression there must cost
 * no more than any other hook. The payload holds the conversation's text (`llm_request.messages`): a mid-session one
 * of about 200 KB, without and with the `<state_snapshot>` a compression leaves (already recorded: the steady state
 * after a compression), plus a recorded AfterTool shell call.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BenchCase } from "./types.ts";

const SESSION = "2c446cde-a241-4485-b90d-b0ee365ecf4d";
const PROJECT = "{project}";
const TRANSCRIPT = `/home/dev/.gemini/tmp/acme/chats/session-2026-12-01T13-53-${SESSION.slice(0, 8)}.jsonl`;

const CONTEXT = `<session_context>\nThis is the Gemini CLI. We are setting up the context for our chat.\nToday's date is Tuesday, December 1, 2026.\nMy operating system is: linux\n- **Workspace Directories:**\n  - /home/dev/acme\n</session_context>`;
const SNAPSHOT = `<state_snapshot>\n<overall_goal>Make the cart total round half-even and cover it with tests.</overall_goal>\n<key_knowledge>\n${Array.from({ length: 40 }, (_, i) => `- fact ${i}: src/cart/total.ts uses roundHalfEven for line ${i}`).join("\n")}\n</key_knowledge>\n</state_snapshot>`;

/** About 200 KB of text turns: what BeforeModel carries in the middle of a working session. */
function messages(first: string): Array<{ role: string; content: string }> {
  const turn = (i: number) => `Step ${i}: I changed src/cart/total.ts so that the subtotal of line ${i} is rounded half-even. `.repeat(20);
  const rest = Array.from({ length: 120 }, (_, i) => ({ role: i % 2 === 0 ? "model" : "user", content: turn(i) }));
  return [{ role: "user", content: first }, ...rest];
}

function beforeModel(project: string, snapshot: boolean): string {
  return JSON.stringify({
    session_id: SESSION,
    transcript_path: TRANSCRIPT,
    cwd: project,
    hook_event_name: "BeforeModel",
    timestamp: "2026-12-01T13:53:04.926Z",
    llm_request: { model: "gemini-2.5-flash", messages: messages(snapshot ? `${CONTEXT}${SNAPSHOT}` : `${CONTEXT}fix the cart total`), config: { temperature: 1, topP: 0.95, topK: 64 } },
  });
}

function afterShell(project: string): string {
  return JSON.stringify({
    session_id: SESSION,
    transcript_path: TRANSCRIPT,
    cwd: project,
    hook_event_name: "AfterTool",
    timestamp: "2026-12-01T13:53:04.962Z",
    tool_name: "run_shell_command",
    tool_input: { command: "npm test", description: "run the tests" },
    tool_response: { llmContent: "<untrusted_context>\nOutput: 12 passing\nProcess Group PGID: 9287\n</untrusted_context>", returnDisplay: "12 passing" },
  });
}

/** A project whose hooks session is open and whose compression (when `snapshot`) is already recorded. */
function prepared(payload: (project: string) => string) {
  return (project: string, binary: string): void => {
    mkdirSync(join(project, ".aioson"), { recursive: true });
    writeFileSync(join(project, ".aioson", "config.md"), "# bench project\n", { flag: "a" });
    for (const stdin of [afterShell(project), payload(project)]) {
      const result = Bun.spawnSync([binary, "hooks:emit", project, "--agent=dev", "--source=gemini"], { stdin: new TextEncoder().encode(stdin) });
      if (result.exitCode !== 0) throw new Error(`hooks:emit setup exited ${result.exitCode}`);
    }
  };
}

const cases: BenchCase[] = [
  {
    name: "hooks:emit gemini BeforeModel 200 KB (every model call)",
    args: ["hooks:emit", "{project}", "--agent=dev", "--source=gemini"],
    stdin: beforeModel(PROJECT, false),
    setup: prepared((project) => beforeModel(project, false)),
    maxRatio: 2,
    maxRssMiB: 45,
  },
  {
    name: "hooks:emit gemini BeforeModel 200 KB, compression already recorded",
    args: ["hooks:emit", "{project}", "--agent=dev", "--source=gemini"],
    stdin: beforeModel(PROJECT, true),
    setup: prepared((project) => beforeModel(project, true)),
    maxRatio: 2,
    maxRssMiB: 45,
  },
  {
    name: "hooks:emit gemini AfterTool run_shell_command",
    args: ["hooks:emit", "{project}", "--agent=dev", "--source=gemini"],
    stdin: afterShell(PROJECT),
    setup: prepared(afterShell),
    // It records a step: the write path's target, like every other recorded hooks:emit case.
    maxRatio: 2.1,
    maxRssMiB: 45,
  },
];

export default cases;
