import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTemp, tempDir, tempProject } from "../helpers.ts";
import { permissionOf, reasonOf, runGuard } from "./helpers.ts";
import { CASES } from "./pre-commit-corpus.ts";

afterAll(cleanupTemp);

function bash(command: string) {
  return { session_id: "s1", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } };
}

describe("guard:pre-commit-guard (Claude Code payloads)", () => {
  test.each(CASES)("%s", (_label, command, expected) => {
    const run = runGuard("pre-commit-guard", bash(command));
    expect(run.code).toBe(0);
    expect(permissionOf(run)).toBe(expected);
    if (expected === null) expect(run.stdout).toBe("");
  });

  test("a deny names the rule and an example", () => {
    const run = runGuard("pre-commit-guard", bash('git commit -m "added stuff"'));
    expect(reasonOf(run)).toContain("Conventional Commits");
    expect(reasonOf(run)).toContain('git commit -m "feat:');
  });

  test("-F <file>: the message file is read relative to the hook directory", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "good.txt"), "# comment\n\nfeat: from a file\n");
    writeFileSync(join(dir, "bad.txt"), "misc changes\n");
    expect(permissionOf(runGuard("pre-commit-guard", bash("git commit -F good.txt"), { dir }))).toBe("allow");
    expect(permissionOf(runGuard("pre-commit-guard", bash("git commit -F bad.txt"), { dir }))).toBe("deny");
    expect(permissionOf(runGuard("pre-commit-guard", bash("git commit -F missing.txt"), { dir }))).toBe("deny");
  });

  test("a non-shell tool is ignored even when its input looks like a command", () => {
    const run = runGuard("pre-commit-guard", { hook_event_name: "PreToolUse", tool_name: "Write", tool_input: { command: "git push", file_path: "/x" } });
    expect(run.stdout).toBe("");
  });

  test("Codex shell arrays are read (`bash -lc <script>`)", () => {
    const run = runGuard("pre-commit-guard", { hook_event_name: "PreToolUse", tool_name: "shell", turn_id: "t", tool_input: { command: ["bash", "-lc", 'git commit -m "bad"'] } });
    expect(permissionOf(run)).toBe("deny");
  });

  test("no payload, malformed JSON and a JSON array all pass silently with exit 0", () => {
    for (const stdin of ["", "{not json", "[1,2]", '"git push"']) {
      const run = runGuard("pre-commit-guard", stdin);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe("");
    }
  });

  test("project config: extra commit types and Codex ask mapped to pass", () => {
    const project = tempProject({ ".aioson/hooks/kit.json": JSON.stringify({ "pre-commit-guard": { types: ["feat", "wip"], codexAsk: "pass" } }) });
    expect(permissionOf(runGuard("pre-commit-guard", bash('git commit -m "wip: spike"'), { dir: project }))).toBe("allow");
    expect(permissionOf(runGuard("pre-commit-guard", bash('git commit -m "fix: not allowed here"'), { dir: project }))).toBe("deny");
    const codexPush = runGuard("pre-commit-guard", bash("git push"), { dir: project, args: ["--tool=codex"] });
    expect(codexPush.stdout).toBe("");
  });

  test("a broken kit.json is logged and the built-in rules apply", () => {
    const dir = tempProject({ ".aioson/hooks/kit.json": '{"pre-commit-guard": {"types": "feat"}}' });
    const run = runGuard("pre-commit-guard", bash('git commit -m "feat: ok"'), { dir });
    expect(permissionOf(run)).toBe("allow");
    const log = Bun.file(join(dir, ".aioson", "runtime", "hooks.log"));
    expect(log.size).toBeGreaterThan(0);
  });
});
