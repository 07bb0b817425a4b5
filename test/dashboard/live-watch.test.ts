/**
 * `aioson live:status --watch` redraws the dashboard's live summary in the terminal: the spec-11 text, then the
 * summary of the session the run wrote last, redrawn as soon as a hook writes (not only every interval).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { BINARY, cleanupTemp, runAioson, tempDir, tempProject, testEnv } from "../helpers.ts";

afterAll(cleanupTemp);

type Reader = { read: () => Promise<{ done: boolean; value?: Uint8Array }> };

async function readUntil(reader: Reader, seen: { text: string }, done: (text: string) => boolean): Promise<void> {
  while (!done(seen.text)) {
    const chunk = await reader.read();
    if (chunk.done) throw new Error(`the watch ended: ${seen.text}`);
    seen.text += new TextDecoder().decode(chunk.value);
  }
}

describe("live:status --watch", () => {
  test("a hook's event redraws the frame at once, with the session summary below the spec-11 lines", async () => {
    const home = tempDir("aioson-home-");
    const project = tempProject();
    const emit = (payload: object) => expect(runAioson(["hooks:emit", project], { home, stdin: JSON.stringify(payload) }).code).toBe(0);
    emit({ hook_event_name: "PostToolUse", session_id: "w-1", tool_name: "Write", tool_input: { file_path: join(project, "src", "a.ts"), content: "x" } });
    // An interval far longer than the test: only a change can draw the second frame.
    const child = Bun.spawn([BINARY, "live:status", project, "--watch=600"], { env: testEnv(home), stdout: "pipe", stderr: "pipe" });
    const reader = child.stdout.getReader();
    const seen = { text: "" };
    try {
      await readUntil(reader, seen, (text) => text.includes("Guard: "));
      const first = seen.text;
      expect(first.startsWith("Live session: hooks-dev-")).toBe(true);
      expect(first).toContain("\nSession w-1 (claude, 2 events, open):\nFiles changed: 1 — src/a.ts\nStill failing: none\nLast test: none\nPlan: none\nCompactions: 0\n");
      emit({ hook_event_name: "PostToolUse", session_id: "w-1", tool_name: "Bash", tool_input: { command: "npm test" }, tool_response: { stdout: "Tests: 1 failed", stderr: "\u001b]0;pwned\u0007", exit_code: 1 } });
      await readUntil(reader, seen, (text) => text.split("Live session: ").length === 3 && text.endsWith("rule injections\n"));
      const second = seen.text.slice(first.length);
      expect(second).toContain("- ");
      expect(second).toContain("| step_done | $ npm test");
      expect(second).toContain("Still failing: $ npm test (exit 1)\nLast test: failed — $ npm test — Tests: 1 failed\n");
    } finally {
      child.kill("SIGTERM");
    }
    expect(await child.exited).toBe(0);
  });

  test("the summary never passes a control character of a recorded text to the terminal", async () => {
    const home = tempDir("aioson-home-");
    const project = tempProject();
    const hostile = "evil\u001b]0;pwned\u0007\u001b[2J.ts";
    expect(runAioson(["hooks:emit", project], { home, stdin: JSON.stringify({ hook_event_name: "PostToolUse", session_id: "w-2", tool_name: "Write", tool_input: { file_path: join(project, hostile), content: "x" } }) }).code).toBe(0);
    const child = Bun.spawn([BINARY, "live:status", project, "--watch=600"], { env: testEnv(home), stdout: "pipe", stderr: "pipe" });
    const reader = child.stdout.getReader();
    const seen = { text: "" };
    try {
      await readUntil(reader, seen, (text) => text.includes("Guard: "));
    } finally {
      child.kill("SIGTERM");
    }
    await child.exited;
    const summary = seen.text.slice(seen.text.indexOf("\nSession w-2"));
    // Shown, not obeyed: each control is written as a visible escape (src/text/terminal.ts).
    expect(summary).toContain("Files changed: 1 — evil\\u{1b}]0;pwned\\u{7}\\u{1b}[2J.ts");
    expect(/[\u0000-\u0008\u000b-\u001f\u007f]/.test(summary)).toBe(false);
  });
});
