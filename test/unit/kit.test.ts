import { describe, expect, test } from "bun:test";
import { GUARD_CATALOG, guardCommandLine, guardCommandLineWindows, selectGuards, GUARD_COMMAND_PATTERN } from "../../src/kit/catalog.ts";
import { guardSpecs, parseWith } from "../../src/install/guards.ts";
import { detectHarness, renderDecision, strictest } from "../../src/kit/dialect.ts";
import { parseShell } from "../../src/kit/shell.ts";
import { isVerified, mentionedPaths } from "../../src/kit/claims.ts";
import { toolsOfCell } from "../../src/kit/confidence.ts";
import { lessonSummary, promptTags } from "../../src/kit/lessons.ts";
import { judgePreCommit } from "../../src/kit/pre-commit.ts";

describe("shell reader", () => {
  test("splits chains and keeps quoted operators inside words", () => {
    const commands = parseShell(`a "b && c" | d 'e;f' ; g || h & i`);
    expect(commands.map((c) => c.words.map((w) => w.text))).toEqual([["a", "b && c"], ["d", "e;f"], ["g"], ["h"], ["i"]]);
  });
  test("heredoc bodies attach to their command; redirection targets are not words", () => {
    const [command] = parseShell("cat > out.txt <<-'EOF'\n\tline one\n\tEOF\necho next");
    expect(command?.words.map((w) => w.text)).toEqual(["cat"]);
    expect(command?.stdin).toBe("line one\n");
  });
  test("variables and unknown substitutions are dynamic", () => {
    const commands = parseShell('x "$HOME" "$(date)" plain');
    // The substitution's own command is listed too (so a git call inside it is judged).
    expect(commands.map((c) => c.words[0]?.text)).toEqual(["date", "x"]);
    const command = commands[1];
    expect(command?.words.map((w) => w.dynamic)).toEqual([false, true, true, false]);
  });
});

describe("dialect", () => {
  test("deny > ask > allow", () => {
    expect(strictest([{ permission: "allow", reason: "a" }, { permission: "deny", reason: "d" }, { permission: "ask", reason: "q" }])?.permission).toBe("deny");
    expect(strictest([])).toBeNull();
  });
  test("harness from flag, else payload shape", () => {
    expect(detectHarness("'codex'", null)).toBe("codex");
    expect(detectHarness(undefined, { hookEventName: "Stop", sessionId: "s" })).toBe("copilot");
    expect(detectHarness(undefined, { hook_event_name: "Stop", turn_id: "t" })).toBe("codex");
    expect(detectHarness(undefined, { hook_event_name: "Stop" })).toBe("claude");
  });
  test("Antigravity always answers PreToolUse (an empty answer denies there)", () => {
    expect(renderDecision("antigravity", "PreToolUse", { kind: "pass" })).toBe('{"decision":"allow"}');
    expect(renderDecision("antigravity", "PreToolUse", { kind: "permission", permission: "ask", reason: "r" })).toBe('{"decision":"ask","reason":"r"}');
  });
  test("Codex pass mapping for ask is configurable", () => {
    expect(renderDecision("codex", "PreToolUse", { kind: "permission", permission: "ask", reason: "r" }, { codexAsk: "pass" })).toBeNull();
  });
});

describe("catalogue", () => {
  test("ten guards, each with Claude, Codex and Copilot events", () => {
    expect(GUARD_CATALOG.length).toBe(10);
    for (const entry of GUARD_CATALOG) for (const harness of ["claude", "codex", "copilot"] as const) expect(entry.hooks[harness]).not.toBeNull();
  });
  test("--with selection and unknown names", () => {
    const { entries, unknown } = selectGuards("verify-claims, guard:pre-commit-guard,nope");
    expect(entries.map((e) => e.name)).toEqual(["pre-commit-guard", "verify-claims"]);
    expect(unknown).toEqual(["nope"]);
    expect(selectGuards("all").entries.length).toBe(10);
  });
  test("command lines", () => {
    const entry = GUARD_CATALOG[0]!;
    const line = guardCommandLine(entry, "claude", { agent: "dev" });
    expect(line).toBe(`aioson guard:pre-commit-guard "$PWD" --tool=claude --agent='dev' 2>/dev/null || true`);
    expect(GUARD_COMMAND_PATTERN.exec(line)?.[1]).toBe("pre-commit-guard");
    expect(guardCommandLineWindows(entry, "codex")).toBe("set NoDefaultCurrentDirectoryInExePath=1& aioson guard:pre-commit-guard . --tool=codex 2>nul & exit /b 0");
  });
  test("Copilot guard handlers: flat, no matcher, cmd.exe `windows` and PowerShell `powershell` forms; the Stop guards share one handler", () => {
    const specs = guardSpecs("copilot", selectGuards("pre-commit-guard,verify-claims,stop-checklist").entries, null);
    expect(specs.map((s) => s.event)).toEqual(["PreToolUse", "Stop"]);
    expect(specs[0]).toEqual({
      event: "PreToolUse", timeout: 10, timeoutSec: 10, flat: true,
      command: `aioson guard:pre-commit-guard "$PWD" --tool=copilot 2>/dev/null || true`,
      windows: "set NoDefaultCurrentDirectoryInExePath=1& aioson guard:pre-commit-guard . --tool=copilot 2>nul & exit /b 0",
      powershell: "aioson guard:pre-commit-guard . --tool=copilot 2>$null; exit 0",
      env: { NoDefaultCurrentDirectoryInExePath: "1" },
    });
    expect(specs[1]).toEqual({
      event: "Stop", timeout: 30, timeoutSec: 30, flat: true,
      command: `aioson guard:stop-guards "$PWD" --tool=copilot --guards=verify-claims,stop-checklist 2>/dev/null || true`,
      windows: "set NoDefaultCurrentDirectoryInExePath=1& aioson guard:stop-guards . --tool=copilot --guards=verify-claims,stop-checklist 2>nul & exit /b 0",
      powershell: "aioson guard:stop-guards . --tool=copilot --guards=verify-claims,stop-checklist 2>$null; exit 0",
      env: { NoDefaultCurrentDirectoryInExePath: "1" },
    });
  });
  test("guard specs per harness: matchers from the catalogue, none for Antigravity", () => {
    const entries = selectGuards("pre-commit-guard,subagent-audit").entries;
    expect(guardSpecs("claude", entries, "qa").map((s) => [s.event, s.matcher, s.commandWindows])).toEqual([["PreToolUse", "Bash|PowerShell", undefined], ["SubagentStart", undefined, undefined]]);
    expect(guardSpecs("codex", entries, null)[1]?.commandWindows).toBe("C:\\Windows\\System32\\cmd.exe --% /d /c type nul& set NoDefaultCurrentDirectoryInExePath=1& aioson guard:subagent-audit . --tool=codex & exit /b 0");
    expect(guardSpecs("claude", entries, "qa")[0]?.command).toContain("--agent='qa'");
    expect(guardSpecs("antigravity", entries, null)).toEqual([]);
  });
  test("--with: all, none, unknown names listed with the known ones", () => {
    expect(parseWith("all")).toMatchObject({ ok: true });
    expect(parseWith("none")).toEqual({ ok: true, entries: [] });
    const bad = parseWith("pre-commit-guard,nope");
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.message).toContain("unknown guard: nope — known: pre-commit-guard, verify-claims");
  });
});

describe("claims", () => {
  test("paths: relative with a directory, rooted, or a code-quoted file name", () => {
    expect(mentionedPaths("Edited src/app.ts, /etc/hosts and `tsconfig.json`; Node.js is fine; see http://x.io/a/b.ts")).toEqual(["src/app.ts", "/etc/hosts", "tsconfig.json"]);
  });
  test("suffix matching works both ways, on whole segments", () => {
    const touched = new Set(["/home/me/app/src/app.ts", "lib/util.ts"]);
    expect(isVerified("src/app.ts", touched)).toBe(true);
    expect(isVerified("/srv/x/lib/util.ts", touched)).toBe(true);
    expect(isVerified("rc/app.ts", touched)).toBe(false);
  });
});

describe("confidence cells", () => {
  test("tool lists in several spellings", () => {
    expect(toolsOfCell("`Read`, Grep + Glob (twice)")).toEqual(["Read", "Grep", "Glob"]);
    expect(toolsOfCell("—")).toEqual([]);
    expect(toolsOfCell("read_file e grep_search")).toEqual(["read_file", "grep_search"]);
  });
});

describe("lessons", () => {
  test("bilingual keywords map to the same tags", () => {
    expect(promptTags("corrigir o teste")).toEqual(["fix", "test"]);
    expect(promptTags("fix the test")).toEqual(["fix", "test"]);
  });
  test("summary: ## Summary section, capped", () => {
    expect(lessonSummary("# T\n\n## Summary\nShort one.\n\n## More\nx")).toBe("Short one.");
    expect(lessonSummary(`## Resumo\n${"y".repeat(800)}`).length).toBe(500);
  });
});

describe("pre-commit judgement", () => {
  test("the reasons of every command at the winning level are kept", () => {
    const verdict = judgePreCommit('git commit -m "bad" && git commit -m "worse"', "/tmp");
    expect(verdict?.permission).toBe("deny");
    expect(verdict?.reason).toContain('"bad"');
    expect(verdict?.reason).toContain('"worse"');
  });
});
