/**
 * Guard kit benchmarks: the two guards on the agent's critical path with real work to do.
 * - pre-commit-guard on a chained command line with a heredoc message (PreToolUse, every shell call);
 * - verify-claims on a 5 MB Claude Code transcript (Stop, every turn end): only the last turn is parsed.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BenchCase } from "./types.ts";

const CHAIN = [
  "npm test",
  "git add -A",
  "git -c user.name=bot commit -m \"$(cat <<'EOF'\nfeat(cart): keep prices in cents\n\nBody line one.\nBody line two.\nEOF\n)\"",
  "git status --short | head -20",
].join(" && ");

const TRANSCRIPT_BYTES = 5 * 1024 * 1024;

function line(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}

/** A session of many turns (prompts, tool calls, large tool results), ending with a turn whose answer cites files. */
export function writeTranscript(path: string, bytes = TRANSCRIPT_BYTES): void {
  const parts: string[] = [];
  let size = 0;
  const push = (text: string) => {
    parts.push(text);
    size += text.length;
  };
  const output = "x".repeat(1_500);
  for (let turn = 0; size < bytes - 200_000; turn++) {
    push(line({ type: "user", message: { role: "user", content: `Turn ${turn}: please look at module ${turn}` } }));
    for (let call = 0; call < 8; call++) {
      const file = `/home/dev/acme/src/module${turn}/file${call}.ts`;
      push(line({ type: "assistant", message: { role: "assistant", content: [{ type: "tool_use", id: `t${turn}-${call}`, name: call % 2 ? "Read" : "Grep", input: { file_path: file, pattern: "foo" } }] } }));
      push(line({ type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: `t${turn}-${call}`, content: `${file}:1: ${output}` }] } }));
    }
    push(line({ type: "assistant", message: { role: "assistant", content: [{ type: "text", text: `Module ${turn} reviewed: src/module${turn}/file1.ts and src/module${turn}/file3.ts.` }] } }));
  }
  push(line({ type: "user", message: { role: "user", content: "Now fix the cart and summarise what you changed." } }));
  const cited: string[] = [];
  for (let call = 0; call < 40; call++) {
    const file = `/home/dev/acme/src/cart/part${call}.ts`;
    cited.push(`src/cart/part${call}.ts`);
    push(line({ type: "assistant", message: { role: "assistant", content: [{ type: "tool_use", id: `c${call}`, name: call % 3 ? "Edit" : "Read", input: { file_path: file, old_string: "a", new_string: "b" } }] } }));
    push(line({ type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: `c${call}`, content: output }] } }));
  }
  push(line({ type: "assistant", message: { role: "assistant", content: [{ type: "text", text: `Changed:\n${cited.map((file) => `- \`${file}\``).join("\n")}\nAll tests pass.` }] } }));
  writeFileSync(path, parts.join(""));
}

const cases: BenchCase[] = [
  {
    name: "guard:pre-commit-guard claude chain+heredoc",
    args: ["guard:pre-commit-guard", "{project}", "--tool=claude"],
    stdin: JSON.stringify({ session_id: "bench", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: CHAIN, description: "commit" }, tool_use_id: "toolu_bench" }),
    maxRatio: 2,
  },
  {
    name: "guard:verify-claims 5 MB transcript",
    args: ["guard:verify-claims", "{project}", "--tool=claude"],
    // Relative transcript_path: resolved against the hook directory ({project}), where setup writes the file.
    stdin: JSON.stringify({ session_id: "bench", hook_event_name: "Stop", stop_hook_active: false, transcript_path: "transcript.jsonl" }),
    setup: (project) => writeTranscript(join(project, "transcript.jsonl")),
    maxRatio: 4,
  },
];

export default cases;
