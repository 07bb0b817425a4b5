import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTemp, tempDir, tempProject } from "../helpers.ts";
import { permissionOf, reasonOf, runGuard } from "./helpers.ts";

afterAll(cleanupTemp);

function bash(command: string) {
  return { session_id: "s1", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } };
}

type Case = [label: string, command: string, expected: "allow" | "deny" | "ask" | null];

const CASES: Case[] = [
  ["valid feat", 'git commit -m "feat: add login"', "allow"],
  ["not conventional", 'git commit -m "added stuff"', "deny"],
  ["no message opens an editor", "git commit", "deny"],
  ["-am cluster with scope", 'git commit -am "fix(cart): handle empty cart"', "allow"],
  ["single quotes", "git commit -m 'docs: update README'", "allow"],
  ["--message=", 'git commit --message="chore: bump deps"', "allow"],
  ["--message value with breaking bang", 'git commit --message "refactor!: drop v1 api"', "allow"],
  ["scope and bang", 'git commit -m "feat(api)!: remove endpoint"', "allow"],
  ["capitalised type", 'git commit -m "Feat: capital"', "deny"],
  ["no space after colon", 'git commit -m "feat:missing space"', "deny"],
  ["unknown type", 'git commit -m "feature: nope"', "deny"],
  ["empty message", 'git commit -m ""', "deny"],
  ["push asks", "git push", "ask"],
  ["force push asks", "git push origin main --force", "ask"],
  ["tag asks", "git tag v1.0.0", "ask"],
  ["not git", "ls -la", null],
  ["other git command", "git status", null],
  ["git in a pipe", "git log --oneline | head -5", null],
  ["add && commit", 'git add . && git commit -m "feat: x"', "allow"],
  ["commit then push: ask wins over allow", 'git add . && git commit -m "feat: x" && git push', "ask"],
  ["two commits, one bad: deny", 'git commit -m "feat: x"; git commit -m "bad"', "deny"],
  ["deny beats ask across ||", 'git commit -m "wip" || git push', "deny"],
  ["push && good commit", 'git push && git commit -m "fix: y"', "ask"],
  ["git text inside an echo argument", 'echo "git commit -m bad"', null],
  ["-C dir", 'git -C ../other commit -m "test: add cases"', "allow"],
  ["-C dir, bad message", 'git -C sub commit -m "oops"', "deny"],
  ["-c k=v before commit", 'git -c user.name=bot commit -m "ci: fix pipeline"', "allow"],
  ["-c k=v, no message", "git -c core.editor=true commit", "deny"],
  ["--amend --no-edit keeps the message", "git commit --amend --no-edit", "allow"],
  ["--amend alone opens an editor", "git commit --amend", "deny"],
  ["--amend with a good message", 'git commit --amend -m "fix: typo"', "allow"],
  ["--amend with a bad message", 'git commit --amend -m "typo"', "deny"],
  ["heredoc message (cat <<EOF)", "git commit -m \"$(cat <<'EOF'\nfeat: heredoc message\n\nBody line\nEOF\n)\"", "allow"],
  ["heredoc message, not conventional", "git commit -m \"$(cat <<'EOF'\nAdded things\nEOF\n)\"", "deny"],
  ["-F - with a heredoc", "git commit -F - <<EOF\nperf: faster startup\nEOF", "allow"],
  ["message from a variable", 'git commit -m "$MSG"', "deny"],
  ["env assignment prefix", 'GIT_AUTHOR_NAME=x git commit -m "style: fmt"', "allow"],
  ["sudo push", "sudo git push", "ask"],
  ["absolute git path", '/usr/bin/git commit -m "nope"', "deny"],
  ["nested bash -c", "bash -c 'git commit -m \"bad message\"'", "deny"],
  ["cd && annotated tag", 'cd repo && git tag -a v2 -m "release"', "ask"],
  ["revert type", 'git commit -m "revert: undo x"', "allow"],
  ["build with scope", 'git commit -m "build(deps): bump"', "allow"],
  ["subject then body -m", 'git commit -m "fix: a" -m "body paragraph"', "allow"],
  ["subject is the first -m", 'git commit -m "bad" -m "feat: second paragraph"', "deny"],
  ["attached -m value", "git commit -mfeat:x", "deny"],
  ["--fixup", "git commit --fixup=HEAD~1", "allow"],
  ["--dry-run commits nothing", "git commit --dry-run", "allow"],
  ["subshell", '(cd sub && git commit -m "test: in subshell")', "allow"],
  ["comment hides push", 'git commit -m "feat: x" # then git push', "allow"],
  ["newline separates commands", 'git status\ngit commit -m "bad"', "deny"],
  ["push inside a grep pattern", 'git log --grep="git push"', null],
  ["commit piped to tee", 'git commit -m "chore: x" | tee log.txt', "allow"],
  ["stash, pull, push", "git stash && git pull --rebase && git push", "ask"],
  ["message from echo substitution", "git commit -m \"$(echo 'fix: via echo')\"", "allow"],
  ["unquoted words after -m", "git commit -m feat: unquoted", "deny"],
  ["alias defined with -c", 'git -c alias.ci=commit ci -m "bad"', "deny"],
  ["ANSI-C quoted message", "git commit -m $'feat: ansi\\nbody'", "allow"],
  ["tag listing still asks", "git tag", "ask"],
  ["commit, tag, push --tags", 'git commit -m "fix: ok" && git tag v1 && git push --tags', "ask"],
  ["tests then commit", 'npm test && git commit -m "test: add"', "allow"],
  ["reuse message with -C", "git commit -C HEAD", "allow"],
  ["background & separator", 'sleep 1 & git commit -m "nope"', "deny"],
  ["redirections around commit", 'git commit -m "docs: x" > out.log 2>&1', "allow"],
];

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
