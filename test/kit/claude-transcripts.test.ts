/**
 * The Stop guards on what Claude Code 2.1.3xx really writes (real-harnesses §1; seen in test/real): the
 * `api-request-blob` copy of a request, tool results with text riding along, `<task-notification>` prompts, the
 * compaction summary, and a transcript that is behind at Stop. Through the real binary.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, cleanupTemp, tempDir, tempProject, testEnv } from "../helpers.ts";
import { claude, jsonl, reasonOf, runGuard } from "./helpers.ts";

afterAll(cleanupTemp);

const P = "/home/dev/shop";

/** `{type:"api-request-blob"}`: Claude Code's copy of the request it sent when a deferred tool was loaded. */
const blob = (text: string) => ({ type: "api-request-blob", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: [] }, { type: "text", text }] } });
const resultWithText = (content: string, text: string) => ({ type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content }, { type: "text", text }] } });
const notification = (result: string) => ({
  type: "user",
  origin: { kind: "task-notification" },
  promptSource: "system",
  message: { role: "user", content: `<task-notification>\n<task-id>a1</task-id>\n<status>completed</status>\n<result>${result}</result>\n</task-notification>` },
});

function transcript(lines: readonly unknown[]): { dir: string; path: string } {
  const dir = tempProject();
  const path = join(dir, "transcript.jsonl");
  writeFileSync(path, jsonl(lines));
  return { dir, path };
}

function stopPayload(path: string, dir: string, extra: Record<string, unknown> = {}) {
  return { session_id: "s1", hook_event_name: "Stop", stop_hook_active: false, transcript_path: path, cwd: dir, ...extra };
}

describe("verify-claims on Claude Code 2.1.3xx transcripts", () => {
  test("an api-request-blob line ('Tool loaded.') is not the user's turn: the Write before it verifies the answer", () => {
    const { dir, path } = transcript([
      claude.user("add totals"),
      claude.tool("Write", { file_path: `${P}/src/cart.ts`, content: "x" }),
      claude.result("File created successfully"),
      claude.tool("ToolSearch", { query: "select:TaskCreate" }),
      blob("Tool loaded."),
      claude.text("Done: I wrote src/cart.ts."),
    ]);
    expect(runGuard("verify-claims", stopPayload(path, dir, { last_assistant_message: "Done: I wrote src/cart.ts." }), { dir }).stdout).toBe("");
  });

  test("a user line answering tool calls is not a turn, whatever text rides along", () => {
    const { dir, path } = transcript([
      claude.user("fix it"),
      claude.tool("Edit", { file_path: `${P}/src/pay/retry.ts` }),
      resultWithText("ok", "Tool loaded."),
      claude.text("Edited src/pay/retry.ts"),
    ]);
    expect(runGuard("verify-claims", stopPayload(path, dir), { dir }).stdout).toBe("");
  });

  test("the compaction summary is not the user's turn", () => {
    const { dir, path } = transcript([
      claude.user("go"),
      claude.tool("Read", { file_path: `${P}/src/a/alpha.ts` }),
      { ...claude.user("This session is being continued from a previous conversation…"), isCompactSummary: true },
      claude.text("src/a/alpha.ts is fine"),
    ]);
    expect(runGuard("verify-claims", stopPayload(path, dir), { dir }).stdout).toBe("");
  });

  test("a <task-notification> does not start a turn, and the sub-agent's result it carries is evidence", () => {
    const lines = [
      claude.user("review the cart"),
      claude.tool("Agent", { description: "Review cart", prompt: "review", subagent_type: "general-purpose" }),
      claude.result("Async agent launched successfully."),
      claude.text("Launched a reviewer."),
      notification("Reviewer report: src/cart/total.ts looks fine."),
    ];
    const verified = transcript([...lines, claude.text("The reviewer checked src/cart/total.ts.")]);
    expect(runGuard("verify-claims", stopPayload(verified.path, verified.dir), { dir: verified.dir }).stdout).toBe("");
    const unverified = transcript([...lines, claude.text("The reviewer checked src/cart/other.ts.")]);
    const run = runGuard("verify-claims", stopPayload(unverified.path, unverified.dir), { dir: unverified.dir });
    expect(reasonOf(run)).toContain("src/cart/other.ts");
  });
});

describe("reminders and the automatic round of a <task-notification>", () => {
  const userTurn = [claude.user("go"), claude.text("Launched a reviewer.")];
  test.each(["stop-checklist", "output-format", "skill-feedback"])("%s speaks at the end of the user's turn, not in the round a notification starts", (guard) => {
    const own = transcript(userTurn);
    expect(runGuard(guard, stopPayload(own.path, own.dir), { dir: own.dir }).output?.decision).toBe("block");
    const automatic = transcript([...userTurn, notification("done"), claude.text("Integrated the report.")]);
    expect(runGuard(guard, stopPayload(automatic.path, automatic.dir, { last_assistant_message: "Integrated the report." }), { dir: automatic.dir }).stdout).toBe("");
  });
});

describe("a transcript behind at Stop", () => {
  test("never catching up within the wait: no block, the person is told what was not checked, the hook log says it", () => {
    const { dir, path } = transcript([claude.user("write the guide")]);
    const run = runGuard("verify-claims", stopPayload(path, dir, { last_assistant_message: "Wrote docs/guide/setup.md" }), { dir });
    expect(run.code).toBe(0);
    expect(run.output?.decision).toBeUndefined();
    expect(String(run.output?.systemMessage)).toMatch(/^AIOSON verify-claims: the transcript did not reach the answer within \d+ ms; not checked: file references docs\/guide\/setup\.md$/);
    expect(readFileSync(join(dir, ".aioson", "runtime", "hooks.log"), "utf8")).toContain("guard:verify-claims");
  });

  test("catching up during the wait: judged on the whole turn", async () => {
    const { dir, path } = transcript([claude.user("write the guide")]);
    const answer = "Wrote docs/guide/setup.md";
    const child = Bun.spawn([BINARY, "guard:verify-claims", dir], {
      cwd: dir,
      env: testEnv(tempDir()),
      stdin: new TextEncoder().encode(JSON.stringify(stopPayload(path, dir, { last_assistant_message: answer }))),
      stdout: "pipe",
      stderr: "pipe",
    });
    // Claude Code flushes the rest of the turn while the hook already runs.
    await Bun.sleep(300);
    appendFileSync(path, jsonl([claude.tool("Write", { file_path: `${P}/docs/guide/setup.md`, content: "x" }), claude.text(answer)]));
    expect(await child.exited).toBe(0);
    expect(await new Response(child.stdout).text()).toBe("");
  });
});
