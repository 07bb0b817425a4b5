/**
 * The OpenCode plugin generated with `--with` guards, loaded in Bun with a fake OpenCode context and the REAL
 * binary (AIOSON_BIN): pre-commit-guard blocks by throwing from `tool.execute.before`, lesson-injector feeds the
 * system prompt, context-save adds the snapshot to the compaction prompt; nothing else ever throws.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { opencodePluginSource } from "../src/install/opencode-plugin.ts";
import { mayRunGit } from "../src/kit/pre-commit.ts";
import { closeStore, openStore } from "../src/store/db.ts";
import { BINARY, cleanupTemp, tempDir, tempProject } from "./helpers.ts";
import { runGuard } from "./kit/helpers.ts";
import { CASES, SILENT, WRAPPED_COMMITS, WRAPPED_PUSHES } from "./kit/pre-commit-corpus.ts";

type Hooks = Record<string, (...args: any[]) => Promise<void>>;
async function loadPlugin(directory: string, guards: string[]): Promise<Hooks> {
  const file = join(tempDir("aioson-plugin-"), "aioson.js");
  writeFileSync(file, opencodePluginSource("dev", guards));
  const mod = await import(file);
  expect(Object.keys(mod)).toEqual(["AiosonPlugin"]);
  return mod.AiosonPlugin({ directory, worktree: directory, client: {}, project: {} });
}

const ALL = ["pre-commit-guard", "lesson-injector", "context-save"];
const bash = (command: string) => [{ tool: "bash", sessionID: "s1", callID: "c1" }, { args: { command } }] as const;

const saved = process.env.AIOSON_BIN;
process.env.AIOSON_BIN = BINARY;
afterEach(() => {
  process.env.AIOSON_BIN = BINARY;
});
afterAll(() => {
  if (saved === undefined) delete process.env.AIOSON_BIN;
  else process.env.AIOSON_BIN = saved;
  cleanupTemp();
});

describe("OpenCode plugin with guards", () => {
  test("without --with the plugin has no tool.execute.before and the guard code is absent", async () => {
    const hooks = await loadPlugin(tempProject(), []);
    expect(hooks["tool.execute.before"]).toBeUndefined();
    expect(opencodePluginSource("dev")).not.toContain("GUARDS");
  });

  const cases: [string, string, "block" | "pass"][] = [
    ["non-conventional commit", `git commit -m "added stuff"`, "block"],
    ["commit without a message", "git commit", "block"],
    ["conventional commit", `git commit -m "feat: add cart"`, "pass"],
    ["push asks, which OpenCode can only block", "git push origin main", "block"],
    ["chain: the strictest wins", `npm test && git commit -m "fix(api): retry" && git tag v1`, "block"],
    ["not git", "npm test", "pass"],
  ];
  for (const [name, command, expected] of cases) {
    test(`pre-commit-guard through tool.execute.before: ${name}`, async () => {
      const hooks = await loadPlugin(tempProject(), ALL);
      const call = hooks["tool.execute.before"]!(...bash(command));
      if (expected === "block") await expect(call).rejects.toThrow(/^AIOSON pre-commit-guard: /);
      else await expect(call).resolves.toBeUndefined();
    });
  }

  test("a push past any cut is never let through: the command goes whole to the guard, and one too long for it asks", async () => {
    const hooks = await loadPlugin(tempProject(), ALL);
    // Past the 8,000 characters every other text of the plugin is cut at (the plugin cut the command there, and then
    // found no git in what was left).
    const far = `echo ${"x".repeat(20_000)}; git push origin main`;
    await expect(hooks["tool.execute.before"]!(...bash(far))).rejects.toThrow(/^AIOSON pre-commit-guard: /);
    const endless = `echo ${"x".repeat(3 * 1024 * 1024)}; git push origin main`;
    await expect(hooks["tool.execute.before"]!(...bash(endless))).rejects.toThrow(/^AIOSON pre-commit-guard: /);
    // bash decodes $'\x67\x69\x74' to git, in which no filter sees the word.
    await expect(hooks["tool.execute.before"]!(...bash("$'\\x67\\x69\\x74' push origin main"))).rejects.toThrow(/^AIOSON pre-commit-guard: /);
    await expect(hooks["tool.execute.before"]!(...bash(`echo ${"x".repeat(20_000)}`))).resolves.toBeUndefined();
  }, 30_000);

  test("the guard is spawned for every line pre-commit-guard could judge (its own corpus), and for none of the everyday commands", async () => {
    // aioson behind a wrapper that notes each start, so the test sees which calls the plugin made.
    const dir = tempDir("aioson-countbin-");
    const started = join(dir, "started");
    const counting = join(dir, "aioson.sh");
    writeFileSync(counting, `#!/bin/sh\necho "$1" >> "${started}"\nexec "${BINARY}" "$@"\n`);
    chmodSync(counting, 0o755);
    process.env.AIOSON_BIN = counting;
    const project = tempProject();
    const hooks = await loadPlugin(project, ["pre-commit-guard"]);
    const startedCount = () => (existsSync(started) ? readFileSync(started, "utf8").split("\n").length : 0);
    const call = async (command: string): Promise<{ spawned: boolean; blocked: boolean }> => {
      const before = startedCount();
      const blocked = await hooks["tool.execute.before"]!(...bash(command)).then(() => false, () => true);
      return { spawned: startedCount() > before, blocked };
    };
    const corpus: Array<[command: string, verdict: "allow" | "deny" | "ask" | null | undefined]> = [
      ...CASES.map(([, command, expected]) => [command, expected] as [string, "allow" | "deny" | "ask" | null]),
      ...WRAPPED_PUSHES.map((command) => [command, "ask"] as [string, "ask"]),
      ...WRAPPED_COMMITS.map(([command, expected]) => [command, expected] as [string, "allow" | "deny"]),
      ...SILENT.map((command) => [command, undefined] as [string, undefined]),
    ];
    const missed: string[] = [];
    const wrong: string[] = [];
    const skipped: string[] = [];
    for (const [command, verdict] of corpus) {
      const { spawned, blocked } = await call(command);
      if (mayRunGit(command) && !spawned) missed.push(command);
      if (!spawned) skipped.push(command);
      // OpenCode can only block: a deny and an ask both throw, an allow or silence lets the call run.
      if (verdict !== undefined && blocked !== (verdict === "deny" || verdict === "ask")) wrong.push(`${command} → ${verdict}`);
    }
    expect(missed).toEqual([]);
    expect(wrong).toEqual([]);
    // What the plugin does not ask about, the guard is silent about (through the real binary).
    for (const command of skipped) expect(runGuard("pre-commit-guard", { hook_event_name: "PreToolUse", session_id: "s1", tool_name: "bash", tool_input: { command } }, { dir: project, args: ["--tool=opencode"] }).stdout).toBe("");
    expect(skipped.length).toBeGreaterThan(0);
    const everyday = ["npm test", "ls -la", "bun test test/a.test.ts", "cat src/index.ts | head -20", "python3 -m pytest -q", "echo $HOME", "make build && ./run.sh", "node --test", "rg -n TODO src", "npx tsc --noEmit", "cd packages/api && npm run lint"];
    for (const command of everyday) expect({ command, ...(await call(command)) }).toEqual({ command, spawned: false, blocked: false });
  }, 60_000);

  test("other tools are never judged; a plugin without pre-commit-guard never blocks", async () => {
    const hooks = await loadPlugin(tempProject(), ALL);
    await expect(hooks["tool.execute.before"]!({ tool: "edit", sessionID: "s1", callID: "c" }, { args: { filePath: "a.ts" } })).resolves.toBeUndefined();
    const noGuard = await loadPlugin(tempProject(), ["lesson-injector"]);
    expect(noGuard["tool.execute.before"]).toBeUndefined();
  });

  test("a missing or broken binary never throws into OpenCode, even from the guard hook", async () => {
    const hooks = await loadPlugin(tempProject(), ALL);
    process.env.AIOSON_BIN = "/nonexistent/aioson";
    await expect(hooks["tool.execute.before"]!(...bash(`git commit -m "bad"`))).resolves.toBeUndefined();
    await expect(hooks["chat.message"]!({ sessionID: "s1" }, { parts: [{ type: "text", text: "fix the test" }] })).resolves.toBeUndefined();
    await expect(hooks["experimental.session.compacting"]!({ sessionID: "s1" }, { context: [] })).resolves.toBeUndefined();
    await expect(hooks["tool.execute.before"]!(undefined, undefined)).resolves.toBeUndefined();
  });

  test("lesson-injector: matching lessons go into the system prompt of that session until its next message", async () => {
    const project = tempProject({
      ".aioson/lessons/L001-fix.md": "---\nid: L001\ntags: [fix, test]\nconfidence: 0.9\n---\n# L001\n\n## Summary\nRun the failing test alone first.\n",
    });
    const hooks = await loadPlugin(project, ALL);
    await hooks["chat.message"]!({ sessionID: "s1" }, { message: {}, parts: [{ type: "text", text: "please fix the failing test" }] });
    const first = { system: [] as string[] };
    await hooks["experimental.chat.system.transform"]!({ sessionID: "s1" }, first);
    expect(first.system.join("\n")).toContain("Run the failing test alone first.");
    const other = { system: [] as string[] };
    await hooks["experimental.chat.system.transform"]!({ sessionID: "s2" }, other);
    expect(other.system).toEqual([]);
    await hooks["chat.message"]!({ sessionID: "s1" }, { message: {}, parts: [{ type: "text", text: "what time is it" }] });
    const after = { system: [] as string[] };
    await hooks["experimental.chat.system.transform"]!({ sessionID: "s1" }, after);
    expect(after.system).toEqual([]);
  });

  test("context-save: the snapshot path joins the compaction prompt after the recap", async () => {
    const project = tempProject();
    const store = openStore(project);
    if (store) closeStore(store);
    const hooks = await loadPlugin(project, ALL);
    const output = { context: [] as string[] };
    await hooks["experimental.session.compacting"]!({ sessionID: "s9" }, output);
    expect(output.context.at(-1)).toContain("docs/maps/session-s9-snapshot.md");
    expect(existsSync(join(project, "docs", "maps", "session-s9-snapshot.md"))).toBe(true);
  });
});
