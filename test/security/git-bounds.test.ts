/**
 * Issue 25, round 2: git in a hostile repository is bounded and runs nothing of it. All the git calls of one hook run
 * share one deadline; a guard that cannot tell in time what a git subcommand is asks instead of letting it through;
 * the repository's aliases are followed as far as git follows them, but never without end; and a lazy fetch from a
 * promisor remote, which would run the repository's `core.sshCommand`, never starts.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { appendFileSync, existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTemp, tempDir, tempProject } from "../helpers.ts";
import { permissionOf, reasonOf, runGuard, type GuardRun } from "../kit/helpers.ts";

afterAll(cleanupTemp);

function git(dir: string, ...args: string[]): void {
  const run = Bun.spawnSync(["git", "-C", dir, ...args], { stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr.toString()}`);
}

/** An AIOSON project that is a git repository. */
function repository(): string {
  const dir = tempProject();
  git(dir, "init", "-q");
  return dir;
}

function bash(command: string) {
  return { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } };
}

/** The guard's answer and how long the whole hook took. */
function timed(run: () => GuardRun): GuardRun & { ms: number } {
  const started = performance.now();
  const result = run();
  return { ...result, ms: performance.now() - started };
}

/** `.git/config` includes a FIFO nobody writes to: every git call that reads the config waits until it is killed. */
function includeFifo(dir: string, section: string): void {
  const fifo = join(dir, ".git", "fifo");
  if (Bun.spawnSync(["mkfifo", fifo]).exitCode !== 0) throw new Error("mkfifo");
  appendFileSync(join(dir, ".git", "config"), `[${section}]\n\tpath = ${fifo}\n`);
}

describe("one deadline for all the git calls of a hook", () => {
  for (const section of ["include", 'includeIf "gitdir:/"']) {
    test(`a FIFO in [${section}]: four alias lookups and a push answer 'ask' well inside the 10 s hook timeout`, () => {
      const dir = repository();
      includeFifo(dir, section);
      const run = timed(() => runGuard("pre-commit-guard", bash("git a1; git a2; git a3; git a4; git push origin main"), { dir }));
      expect(run.code).toBe(0);
      expect(permissionOf(run)).toBe("ask");
      // One 3 s budget for every git call (it was 3 s per call: 12 s, and a timed-out PreToolUse does not block).
      expect(run.ms).toBeLessThan(6_000);
    });
  }

  test("a subcommand git cannot tell in time is an alias or not asks, never passes", () => {
    const dir = repository();
    includeFifo(dir, "include");
    const run = runGuard("pre-commit-guard", bash("git publish origin main"), { dir });
    expect(permissionOf(run)).toBe("ask");
    expect(reasonOf(run)).toContain("git publish: it may be one of the repository's aliases (which may push), and git did not answer in time");
  });

  test("session-context gives up on git within the budget and still answers", () => {
    const dir = repository();
    includeFifo(dir, "include");
    const run = timed(() => runGuard("session-context", { hook_event_name: "SessionStart", source: "startup" }, { dir }));
    expect(run.code).toBe(0);
    // Each of its calls waited 3 s before (a config read, then status: 6 s).
    expect(run.ms).toBeLessThan(5_000);
  });
});

describe("the repository's aliases", () => {
  test("a chain of aliases deeper than the shells the guard follows is still followed to its push", () => {
    const dir = repository();
    for (const [name, value] of [["a1", "a2"], ["a2", "a3"], ["a3", "a4"], ["a4", "a5"], ["a5", "push"]]) git(dir, "config", `alias.${name}`, value as string);
    expect(permissionOf(runGuard("pre-commit-guard", bash("git a1 origin main"), { dir }))).toBe("ask");
  });

  test("a shell alias's git calls see the line's -c aliases, as git passes them on", () => {
    const dir = repository();
    const run = runGuard("pre-commit-guard", bash("git -c alias.p=push -c alias.x='!git p' x"), { dir });
    expect(permissionOf(run)).toBe("ask");
    expect(reasonOf(run)).toContain("git push publishes commits");
  });

  test("an alias that runs itself again and again asks at once instead of growing without end", () => {
    const dir = repository();
    git(dir, "config", "alias.a", `!${Array.from({ length: 30 }, () => "git a").join("; ")}`);
    const run = timed(() => runGuard("pre-commit-guard", bash("git a"), { dir }));
    expect(permissionOf(run)).toBe("ask");
    expect(reasonOf(run)).toContain("expands git aliases too many times");
    // 30 calls per level, four levels: 810,000 judgements and as many git spawns before.
    expect(run.ms).toBeLessThan(3_000);
  });
});

describe("a lazy fetch never starts", () => {
  test("a promisor remote with the repository's core.sshCommand (and ssh allowed by name) runs nothing", () => {
    const dir = repository();
    const marker = join(tempDir("aioson-marker-"), "ran");
    writeFileSync(join(dir, "file.txt"), "hello\n");
    git(dir, "add", "file.txt");
    git(dir, "-c", "user.email=a@b.c", "-c", "user.name=a", "commit", "-q", "-m", "init");
    // A tree the repository says its promisor remote holds: status must fetch it to compare HEAD with the index.
    const tree = Bun.spawnSync(["git", "-C", dir, "rev-parse", "HEAD^{tree}"]).stdout.toString().trim();
    rmSync(join(dir, ".git", "objects", tree.slice(0, 2), tree.slice(2)));
    rmSync(join(dir, ".git", "index"));
    git(dir, "config", "core.repositoryformatversion", "1");
    git(dir, "config", "extensions.partialClone", "origin");
    git(dir, "config", "remote.origin.url", "ssh://example.invalid/repo");
    git(dir, "config", "remote.origin.promisor", "true");
    git(dir, "config", "protocol.ssh.allow", "always");
    git(dir, "config", "core.sshCommand", `touch '${marker}'; false`);
    const run = runGuard("session-context", { hook_event_name: "SessionStart", source: "startup" }, { dir });
    expect(run.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });
});
