/**
 * Claude Code 2.1.328 and a rule that opts in with `guard_deny: true`. Claude shows a PreToolUse additionalContext to
 * the model only after the write happened; with the opt-in, context:guard answers Claude's documented deny instead:
 * the write never lands, the model reads the finding and the rule's first constraints as the tool's error result,
 * and writes a conforming file.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../../helpers.ts";
import type { ClaudeRun } from "../lib/drivers/claude.ts";
import { ClaudeBench, ran, toolResultFor } from "./bench.ts";

const RULE = readFileSync(join(REPO_ROOT, "test", "fixtures", "rules", "naming-deny.md"), "utf8");

let bench: ClaudeBench;
let run: ClaudeRun;

beforeAll(async () => {
  bench = await ClaudeBench.create({ files: { ".aioson/rules/naming.md": RULE } });
  const P = bench.project;
  run = await bench.run({
    prompt: "add a cart service",
    script: {
      turns: [
        { tools: [{ id: "toolu_denied", name: "Write", input: { file_path: `${P}/src/cart/servicoCarrinho.ts`, content: "export function criarCarrinho() {}\n" } }] },
        { tools: [{ id: "toolu_allowed", name: "Write", input: { file_path: `${P}/src/cart/cartService.ts`, content: "export function createCart() {}\n" } }] },
        { text: "Added src/cart/cartService.ts." },
      ],
    },
  });
});

afterAll(() => bench?.stop());

describe("Claude Code 2.1.328: a guard_deny rule", () => {
  test("the harness ran context:guard for both writes and PostToolUse only for the one that happened", () => {
    expect(ran(run, "PreToolUse", "context:guard", "Write").length).toBe(2);
    expect(ran(run, "PostToolUse", "hooks:emit", "Write").length).toBe(1);
  });

  test("the model's next request holds the denial: the finding and the rule's first constraints", () => {
    const denied = toolResultFor(bench.server, "toolu_denied");
    expect(denied?.isError).toBe(true);
    expect(denied?.text).toContain("The write to servicoCarrinho.ts was denied");
    expect(denied?.text).toContain('- HIGH non-English filename "servicoCarrinho"');
    expect(denied?.text).toContain("- Write identifiers in English.\n- Name files after what they hold, in English.");
    expect(toolResultFor(bench.server, "toolu_allowed")?.isError).toBe(false);
  });

  test("the file on disk never held the violation; aioson stored the deny and only the real write", () => {
    expect(existsSync(join(bench.project, "src", "cart", "servicoCarrinho.ts"))).toBe(false);
    expect(existsSync(join(bench.project, "src", "cart", "cartService.ts"))).toBe(true);
    expect(bench.events("event_type = 'artifact'").map((row) => row.payload.file)).toEqual(["src/cart/cartService.ts"]);
    const decisions = bench.events("event_type = 'guard_decision'");
    expect(decisions.map((row) => [row.payload.guard, row.payload.decision, row.payload.tool, row.payload.file, row.harness_session_id])).toEqual([
      ["context:guard", "deny", "Write", "src/cart/servicoCarrinho.ts", run.sessionId],
    ]);
  });
});
