/**
 * Issue 25, round 2: pre-commit-guard on long command lines. A command too long to be read whole (the payload
 * filter keeps a string's first 512 KiB and last 64 KiB, and cuts values off past its bounds) asks: what it runs may
 * be in the part that was dropped. However many programs wrap git or however many message files a line names, the
 * judgement stays within a fraction of the hook's 10 s timeout (a PreToolUse that times out does not block), and
 * wrapping deeper than the guard follows asks instead of passing.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTemp, tempProject } from "../helpers.ts";
import { permissionOf, reasonOf, runGuard } from "../kit/helpers.ts";

afterAll(cleanupTemp);

function bash(command: unknown) {
  return { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } };
}

/** The guard's answer to `command` and how long the hook took. */
function judged(command: unknown, dir = tempProject()) {
  const started = performance.now();
  const run = runGuard("pre-commit-guard", bash(command), { dir });
  return { run, ms: performance.now() - started };
}

const KIB = 1024;

describe("a command too long to be read whole", () => {
  test("git push past the first 512 KiB of a 670 KB command asks (it passed silently: the middle was dropped)", () => {
    const { run } = judged(`echo ${"a".repeat(600 * KIB)}; git push origin main; echo ${"b".repeat(70 * KIB)}`);
    expect(run.code).toBe(0);
    expect(permissionOf(run)).toBe("ask");
    expect(reasonOf(run)).toContain("too long to be read whole");
    // Nothing to find: it still asks, the dropped part may run anything.
    expect(permissionOf(judged(`echo ${"a".repeat(700 * KIB)}`).run)).toBe("ask");
  });

  test("a long command read whole is judged as usual", () => {
    const { run } = judged(`echo ${"a".repeat(270 * KIB)}; git push origin main`);
    expect(reasonOf(run)).toBe("git push publishes commits: confirm with the user before pushing.");
    expect(judged(`echo ${"a".repeat(270 * KIB)}`).run.stdout).toBe("");
  });

  test("a Codex argv of 60,000 words, cut off past the filter's 50,000 values before its push, asks", () => {
    const argv = ["git", ...Array.from({ length: 30_000 }, () => ["-c", "a.b=c"]).flat(), "push", "origin", "main"];
    const run = runGuard("pre-commit-guard", { hook_event_name: "PreToolUse", turn_id: "t", tool_name: "shell", tool_input: { command: argv } }, { dir: tempProject(), args: ["--tool=codex"] });
    expect(permissionOf(run)).toBe("deny");
    expect(reasonOf(run)).toContain("too long to be read whole");
  });

  test("a command its sender cut (OpenCode's plugin caps it at 8,000 characters with the cut mark) asks", () => {
    const { run } = judged(`git status; echo ${"a".repeat(7_950)}…[truncated]`);
    expect(permissionOf(run)).toBe("ask");
    expect(reasonOf(run)).toContain("too long to be read whole");
  });

  test("a long payload of a tool that is no shell stays silent", () => {
    const write = { hook_event_name: "PreToolUse", tool_name: "Write", tool_input: { file_path: "/tmp/a.txt", content: `git push ${"a".repeat(700 * KIB)}` } };
    expect(runGuard("pre-commit-guard", write, { dir: tempProject() }).stdout).toBe("");
  });
});

describe("programs wrapped in programs", () => {
  test.each([
    ["sudo ", 100_000],
    ["runuser ", 50_000],
    ["find . -exec ", 30_000],
    ["parallel ", 40_000],
    ["xargs ", 80_000],
  ])("%s× %d then git push asks at once", (wrapper, times) => {
    const { run, ms } = judged(`${wrapper.repeat(times)}git push`);
    expect(run.code).toBe(0);
    expect(permissionOf(run)).toBe("ask");
    // Each wrapper cost a pass over every word after it (runuser 13 s, find -exec a minute and a stack overflow).
    expect(ms).toBeLessThan(2_000);
  });

  test("deeper than the guard follows, a line that mentions git asks; one that does not stays silent", () => {
    const deep = judged(`${"xargs ".repeat(20)}git push`);
    expect(permissionOf(deep.run)).toBe("ask");
    expect(reasonOf(deep.run)).toContain("wraps programs in programs too deep");
    expect(judged(`${"sudo ".repeat(20)}ls`).run.stdout).toBe("");
  });
});

describe("message files", () => {
  test("git commit -F <1 MiB file> twenty thousand times is read within a budget, and what is past it is denied", () => {
    const dir = tempProject();
    writeFileSync(join(dir, "msg.txt"), `feat: a message\n${"x".repeat(1024 * 1024 - 32)}\n`);
    const { run, ms } = judged(`${"git commit -F msg.txt; ".repeat(20_000)}git push`, dir);
    expect(permissionOf(run)).toBe("deny");
    expect(reasonOf(run)).toContain("cannot be read");
    // 20 GB were read before (about 7 s).
    expect(ms).toBeLessThan(3_000);
    expect(permissionOf(judged("git commit -F msg.txt", dir).run)).toBe("allow");
  });
});
