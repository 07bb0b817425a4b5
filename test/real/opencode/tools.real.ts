/**
 * OpenCode 1.18.33 tools beyond write/edit: `apply_patch` (offered instead of write/edit to a model id with `gpt-`),
 * a `task` sub-agent (a session of its own, whose tool calls belong to the session that launched it), and a
 * relative write from a subfolder (relative to the folder OpenCode runs in).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { PATCH_MODEL, opencodeWire, type OpencodeRun } from "../lib/drivers/opencode.ts";
import { offeredTools } from "../lib/wire/chat.ts";
import { OpencodeBench } from "./bench.ts";

const PATCH = ["*** Begin Patch", "*** Add File: src/cart.ts", "+export const cart = [];", "*** Update File: README.md", "@@", "-# bench", "+# bench project", "*** End Patch"].join("\n");

let bench: OpencodeBench;
let patch: OpencodeRun;
let task: OpencodeRun;
let sub: OpencodeRun;

beforeAll(async () => {
  bench = await OpencodeBench.create({ files: { "README.md": "# bench\n" } });
  patch = await bench.run({
    message: ["add", "the", "cart"],
    model: PATCH_MODEL,
    script: { turns: [{ tools: [{ name: "apply_patch", input: { patchText: PATCH } }] }, { text: "Added src/cart.ts and renamed the README title." }] },
  });
  task = await bench.run({
    message: ["delegate the notes"],
    script: {
      turns: [
        { text: "Delegating.", tools: [{ name: "task", input: { description: "write notes", prompt: "SUBTASK: write docs/notes.md", subagent_type: "general" } }] },
        { text: "The sub-agent wrote docs/notes.md." },
      ],
      lanes: [
        {
          name: "sub-agent",
          match: (request, wire) => wire.firstSentText(request.body).includes("SUBTASK"),
          turns: [{ tools: [{ name: "write", input: { filePath: "docs/notes.md", content: "# notes\n" } }] }, { text: "Sub-agent done: wrote docs/notes.md." }],
        },
      ],
    },
  });
  mkdirSync(join(bench.project, "src", "lib"), { recursive: true });
  sub = await bench.run({
    message: ["write util"],
    cwd: join(bench.project, "src", "lib"),
    script: { turns: [{ tools: [{ name: "write", input: { filePath: "util.ts", content: "export {};\n" } }] }, { text: "Wrote util.ts." }] },
  });
});

afterAll(() => bench?.stop());

describe("OpenCode 1.18.33: apply_patch, a task sub-agent, a subfolder", () => {
  test("a gpt- model is offered apply_patch, not write/edit; each patched file is an artifact", () => {
    const offered = offeredTools(bench.server.modelRequests().find((request) => opencodeWire.lastSentText(request.body).includes("add the cart"))?.body);
    expect(offered).toContain("apply_patch");
    expect(offered).not.toContain("write");
    expect(offered).not.toContain("edit");
    const rows = bench.events("harness_session_id = ? AND event_type = 'artifact'", patch.sessionId);
    expect(rows.map((row) => [row.message, row.payload.op])).toEqual([["apply_patch: src/cart.ts", "add"], ["apply_patch: README.md", "update"]]);
    expect(existsSync(join(bench.project, "src", "cart.ts"))).toBe(true);
  });

  test("the sub-agent's write is recorded under the session that launched it, next to the Task; its last text is not the agent's", () => {
    const rows = bench.events("harness_session_id = ? AND run_key IS NOT NULL", task.sessionId);
    expect(rows.map((row) => `${row.event_type}: ${row.message}`)).toEqual(["artifact: Write: docs/notes.md", "note: write notes", "agent_message: The sub-agent wrote docs/notes.md."]);
    expect(rows.find((row) => row.event_type === "note")?.payload).toMatchObject({ tool: "Task", subagent_type: "general" });
    expect(bench.events("payload_json LIKE '%Sub-agent done%'")).toEqual([]);
    expect(bench.server.requests.some((request) => request.lane === "sub-agent")).toBe(true);
  });

  test("a relative write from a subfolder is the project path of that file", () => {
    const rows = bench.events("harness_session_id = ? AND event_type = 'artifact'", sub.sessionId);
    expect(rows.map((row) => row.message)).toEqual(["Write: src/lib/util.ts"]);
    expect(existsSync(join(bench.project, "src", "lib", "util.ts"))).toBe(true);
  });
});
