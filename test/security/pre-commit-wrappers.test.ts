/**
 * Issue 11 item 9: pre-commit-guard sees through the programs that run another program, and a git subcommand it
 * cannot resolve before the command runs asks. Through the real binary, in each harness's dialect: Claude Code and
 * Copilot ask, Codex (no ask) denies and says to ask the user, OpenCode's shim blocks, Antigravity asks.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { cleanupTemp, tempDir } from "../helpers.ts";
import { permissionOf, reasonOf, runGuard } from "../kit/helpers.ts";
import { SILENT, WRAPPED_COMMITS, WRAPPED_PUSHES } from "../kit/pre-commit-corpus.ts";

afterAll(cleanupTemp);

function bash(command: string, extra: Record<string, unknown> = {}) {
  return { session_id: "s1", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command }, ...extra };
}

describe("wrapped pushes ask (Claude Code)", () => {
  test.each(WRAPPED_PUSHES)("%s", (command) => {
    const run = runGuard("pre-commit-guard", bash(command), { args: ["--tool=claude"] });
    expect(run.code).toBe(0);
    expect(permissionOf(run)).toBe("ask");
  });
});

describe("wrapped commits are judged like plain ones", () => {
  test.each(WRAPPED_COMMITS)("%s → %s", (command, expected) => {
    expect(permissionOf(runGuard("pre-commit-guard", bash(command), { args: ["--tool=claude"] }))).toBe(expected);
  });
});

describe("what cannot run git stays silent", () => {
  test.each(SILENT)("%s", (command) => {
    const run = runGuard("pre-commit-guard", bash(command), { args: ["--tool=claude"] });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("");
  });
});

describe("each harness's dialect", () => {
  const command = "timeout 5 git push";

  test("Codex has no ask: a deny that tells the agent to ask the user", () => {
    const run = runGuard("pre-commit-guard", bash(command, { turn_id: "t" }), { args: ["--tool=codex"] });
    expect(permissionOf(run)).toBe("deny");
    expect(reasonOf(run)).toContain("ask the user");
  });

  test("Copilot in VS Code asks", () => {
    const payload = { timestamp: "2026-02-09T10:30:00.000Z", cwd: "/w", sessionId: "s", hookEventName: "PreToolUse", tool_name: "run_in_terminal", tool_input: { command } };
    expect(permissionOf(runGuard("pre-commit-guard", payload, { args: ["--tool=copilot"] }))).toBe("ask");
  });

  test("OpenCode's shim blocks", () => {
    expect(runGuard("pre-commit-guard", bash(command), { args: ["--tool=opencode"] }).output).toEqual({ block: true, reason: expect.any(String) });
  });

  test("Antigravity asks", () => {
    expect(runGuard("pre-commit-guard", bash(command), { args: ["--tool=antigravity"] }).output).toEqual({ decision: "ask", reason: expect.any(String) });
  });

  test("an unresolvable subcommand says why", () => {
    expect(reasonOf(runGuard("pre-commit-guard", bash("a=push; git $a"), { args: ["--tool=claude"] }))).toContain("cannot be checked");
  });
});

describe("the repository's aliases", () => {
  test("an alias of push defined in the repository's config asks", () => {
    const dir = tempDir("aioson-alias-");
    execFileSync("git", ["init", "-q", dir]);
    execFileSync("git", ["-C", dir, "config", "alias.publish", "push"]);
    execFileSync("git", ["-C", dir, "config", "alias.shipit", "!git push origin HEAD"]);
    expect(permissionOf(runGuard("pre-commit-guard", bash("git publish"), { dir, args: ["--tool=claude"] }))).toBe("ask");
    expect(permissionOf(runGuard("pre-commit-guard", bash("git shipit"), { dir, args: ["--tool=claude"] }))).toBe("ask");
    expect(runGuard("pre-commit-guard", bash("git status"), { dir, args: ["--tool=claude"] }).stdout).toBe("");
  });
});

describe("bash expansions that spell or hide git (issue 25, round 2)", () => {
  const nest = (inner: string) => `echo ${"$(".repeat(8)}${inner}${")".repeat(8)}`;
  test.each([
    ["$'\\x67\\x69\\x74' push"],
    ["$'\\147\\151\\164' push"],
    ["git $'\\x70ush' origin main"],
    ["$'\\u0067it' $'\\x70ush'"],
    ['$"git" push'],
    ["echo $(( $(git push) ))"],
    ["echo ${x:-$(git push)}"],
    ["echo ${x:-`git push`}"],
    ['echo "${x:-$(git push)}"'],
    [nest("`g''it push`")],
    [nest("${x:-$(g''it push)}")],
    ["eval eval eval eval eval \"$'\\\\x67it' push\""],
  ])("%s asks", (command) => {
    expect(permissionOf(runGuard("pre-commit-guard", bash(command), { args: ["--tool=claude"] }))).toBe("ask");
  });

  test.each([["echo ${GIT_DIR:-$(pwd)/.git}"], ["echo $((1 + 2)) ${HOME}"], ["printf $'\\x41\\n'"]])("%s stays silent", (command) => {
    expect(runGuard("pre-commit-guard", bash(command), { args: ["--tool=claude"] }).stdout).toBe("");
  });
});
