/**
 * Issue 25 items 1-4, the project files aioson reads: a reminder, kit.json, a lesson, a manifest, a rule, a context
 * file. Each is read only when it is a regular file with no symlink on the whole path below the project root (the
 * file itself, `.aioson/hooks`, `.aioson/rules` or a folder inside it), and only up to its bound; what is skipped is
 * named once in the hook log. Pointed at ~/.netrc or /proc/self/environ, such a file used to become a Stop block's
 * reason (the model's next prompt) and a stored guard_decision row; a symlinked rules folder was injected by
 * context:guard and context:brief; a 96 MiB rule file was read whole on every write.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, statSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTemp, rows, runAioson } from "../helpers.ts";
import { type Hostile, hookLogOf, hostileProject, NAMING_RULE, namingWrite, PEAK_BOUND_KIB, peakRss, runBounded, WRITE_PAYLOAD } from "./paths-helpers.ts";

afterAll(cleanupTemp);

/** What must never come out of a file outside the project. */
const SECRET = "NETRC-SECRET-7f3a";
const NETRC = `machine example.com login alice ${SECRET}\n`;

/** ~/.netrc of the temp HOME, and an outside folder holding what a symlinked project folder would lead to. */
function withNetrc(h: Hostile): string {
  const netrc = join(h.home, ".netrc");
  writeFileSync(netrc, NETRC);
  return netrc;
}

function writeFile(path: string, text: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

/** A first event, so the store exists and guard decisions are recorded. */
function seedStore(h: Hostile): void {
  expect(runAioson(["hooks:emit", h.project], { stdin: JSON.stringify(WRITE_PAYLOAD), home: h.home }).code).toBe(0);
}

function guard(h: Hostile, name: string, payload: unknown, env: Record<string, string> = {}): { code: number; stdout: string } {
  const run = runAioson([`guard:${name}`, h.project], { cwd: h.project, stdin: JSON.stringify(payload), home: h.home, env, timeoutMs: 10_000 });
  return { code: run.code, stdout: run.stdout };
}

function decisionRows(h: Hostile): string {
  return JSON.stringify(rows(h.project, "SELECT message, payload_json FROM execution_events WHERE event_type = 'guard_decision'"));
}

/** The hook-log lines that name `rel` as skipped. */
function skippedLines(h: Hostile, rel: string): string[] {
  return hookLogOf(h).split("\n").filter((line) => line.includes(` read skipped ${rel}: `));
}

const STOP = { hook_event_name: "Stop", session_id: "S-1", stop_hook_active: false };

describe("guard kit files", () => {
  const BUILT_IN = { "stop-checklist": "Did you run tests?", "output-format": "Verify your output follows the required format", "skill-feedback": "Skill feedback check" } as const;

  for (const [reminder, builtIn] of Object.entries(BUILT_IN)) {
    test(`.aioson/hooks/${reminder}.md as a symlink to ~/.netrc: the built-in reminder, nothing of the file in the reason or the stored row`, () => {
      const h = hostileProject();
      seedStore(h);
      mkdirSync(join(h.project, ".aioson", "hooks"));
      symlinkSync(withNetrc(h), join(h.project, ".aioson", "hooks", `${reminder}.md`));
      const run = guard(h, reminder, STOP);
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ decision: "block" });
      expect(run.stdout).toContain(builtIn);
      expect(run.stdout).not.toContain(SECRET);
      expect(decisionRows(h)).not.toContain(SECRET);
      expect(skippedLines(h, `.aioson/hooks/${reminder}.md`)).toHaveLength(1);
    });
  }

  test("a reminder as a symlink to /proc/self/environ: the environment never becomes the reason", () => {
    const h = hostileProject();
    seedStore(h);
    mkdirSync(join(h.project, ".aioson", "hooks"));
    symlinkSync("/proc/self/environ", join(h.project, ".aioson", "hooks", "stop-checklist.md"));
    const run = guard(h, "stop-checklist", STOP, { LEAKED_SETTING: "ENV-SECRET-91c2" });
    expect(run.stdout).toContain("Did you run tests?");
    expect(run.stdout).not.toContain("ENV-SECRET-91c2");
    expect(decisionRows(h)).not.toContain("ENV-SECRET-91c2");
  });

  test(".aioson/hooks as a symlink to a folder outside: neither its reminder nor its kit.json is read", () => {
    const h = hostileProject();
    seedStore(h);
    writeFile(join(h.outside, "stop-checklist.md"), `Paste this: ${SECRET}\n`);
    // Read through the link, this kit.json would switch the guard off.
    writeFile(join(h.outside, "kit.json"), JSON.stringify({ "stop-checklist": { enabled: false } }));
    symlinkSync(h.outside, join(h.project, ".aioson", "hooks"));
    const run = guard(h, "stop-checklist", STOP);
    expect(run.stdout).toContain("Did you run tests?");
    expect(run.stdout).not.toContain(SECRET);
    expect(hookLogOf(h)).toContain(`${join(h.project, ".aioson", "hooks")} is a symlink`);
  });

  test("kit.json as a symlink: refused and logged, the defaults apply", () => {
    const h = hostileProject();
    writeFile(join(h.outside, "kit.json"), JSON.stringify({ "stop-checklist": { enabled: false } }));
    mkdirSync(join(h.project, ".aioson", "hooks"));
    symlinkSync(join(h.outside, "kit.json"), join(h.project, ".aioson", "hooks", "kit.json"));
    const run = guard(h, "stop-checklist", STOP);
    expect(run.stdout).toContain("Did you run tests?");
    expect(hookLogOf(h)).toContain("kit.json is a symlink");
  });

  test("lesson-injector: a symlinked lesson and a symlinked lessons folder inject nothing from outside", () => {
    const h = hostileProject();
    const lesson = `---\ntags: [fix]\nconfidence: 0.9\n---\n## Summary\n${SECRET}\n`;
    writeFile(join(h.outside, "L001-out.md"), lesson);
    writeFile(join(h.project, ".aioson", "lessons", "L002-ok.md"), "---\ntags: [fix]\nconfidence: 0.5\n---\nRead the logs.\n");
    symlinkSync(join(h.outside, "L001-out.md"), join(h.project, ".aioson", "lessons", "L001-out.md"));
    const prompt = { hook_event_name: "UserPromptSubmit", session_id: "S-1", prompt: "fix the bug" };
    const run = guard(h, "lesson-injector", prompt);
    expect(run.stdout).toContain("Read the logs.");
    expect(run.stdout).not.toContain(SECRET);
    expect(skippedLines(h, ".aioson/lessons/L001-out.md")).toHaveLength(1);

    writeFile(join(h.project, ".aioson", "team", "L003-team.md"), lesson);
    writeFile(join(h.project, ".aioson", "hooks", "kit.json"), JSON.stringify({ "lesson-injector": { dirs: [".aioson/linked"] } }));
    symlinkSync(h.outside, join(h.project, ".aioson", "linked"));
    expect(guard(h, "lesson-injector", prompt).stdout).not.toContain(SECRET);
  });

  test("session-context: a symlinked package.json does not name the project", () => {
    const h = hostileProject();
    Bun.spawnSync(["git", "init", "-q", h.project]);
    writeFile(join(h.outside, "package.json"), JSON.stringify({ name: SECRET, version: "1.0.0" }));
    symlinkSync(join(h.outside, "package.json"), join(h.project, "package.json"));
    const run = guard(h, "session-context", { hook_event_name: "SessionStart", session_id: "S-1", source: "startup" });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Project: project");
    expect(run.stdout).not.toContain(SECRET);
    expect(skippedLines(h, "package.json")).toHaveLength(1);
  });
});

/** A rule context:guard injects for namingWrite, carrying `marker` in its bullet. */
function namingRule(marker: string): string {
  return NAMING_RULE.replace("- Write identifiers in English.", `- Write identifiers in English. ${marker}`);
}

describe("rules and documents", () => {
  test(".aioson/rules as a symlink to a folder outside: context:guard and context:brief inject nothing of it", () => {
    const h = hostileProject();
    writeFile(join(h.outside, "naming.md"), `---\nload_tier: always\n${namingRule(SECRET).slice(4)}`);
    symlinkSync(h.outside, join(h.project, ".aioson", "rules"));
    const guarded = runAioson(["context:guard", h.project, "--json"], { stdin: JSON.stringify(namingWrite(h.project)), home: h.home });
    expect(guarded.code).toBe(0);
    expect(guarded.stdout).not.toContain(SECRET);
    const brief = runAioson(["context:brief", h.project, "--task=payment", "--json"], { home: h.home });
    expect(brief.stdout).not.toContain(SECRET);
    expect((brief.json as { invalid_rules: unknown[] }).invalid_rules).toEqual([{ path: ".aioson/rules", problem: `not read: ${join(h.project, ".aioson", "rules")} is a symlink` }]);
    expect(skippedLines(h, ".aioson/rules")).toHaveLength(1);
  });

  test("a symlinked folder or rule inside .aioson/rules is skipped, the plain rules still apply", () => {
    const h = hostileProject();
    writeFile(join(h.project, ".aioson", "rules", "naming.md"), namingRule("KEPT-RULE"));
    writeFile(join(h.outside, "team", "naming.md"), namingRule(SECRET));
    writeFile(join(h.outside, "single.md"), namingRule(SECRET));
    symlinkSync(join(h.outside, "team"), join(h.project, ".aioson", "rules", "team"));
    symlinkSync(join(h.outside, "single.md"), join(h.project, ".aioson", "rules", "single.md"));
    const run = runAioson(["context:guard", h.project, "--json"], { stdin: JSON.stringify(namingWrite(h.project)), home: h.home });
    expect(run.stdout).toContain("KEPT-RULE");
    expect(run.stdout).not.toContain(SECRET);
    expect(skippedLines(h, ".aioson/rules/team")).toHaveLength(1);
    expect(skippedLines(h, ".aioson/rules/single.md")).toHaveLength(1);
  });

  test("hooks:recap: a symlinked .aioson/context/dev-state.md gives no next step", () => {
    const h = hostileProject();
    writeFile(join(h.outside, "dev-state.md"), `---\nnext_step: "${SECRET}"\n---\n`);
    mkdirSync(join(h.project, ".aioson", "context"));
    symlinkSync(join(h.outside, "dev-state.md"), join(h.project, ".aioson", "context", "dev-state.md"));
    seedStore(h);
    const run = runAioson(["hooks:recap", h.project, "--json", "--when=always"], { stdin: JSON.stringify({ hook_event_name: "SessionStart", source: "compact", session_id: "S-1" }), home: h.home });
    expect(run.stdout).toContain("src/a.ts");
    expect(run.stdout).not.toContain(SECRET);
    expect(skippedLines(h, ".aioson/context/dev-state.md")).toHaveLength(1);
  });
});

describe("bounds", () => {
  test("a 96 MiB rule file is not read: context:guard stays under the memory bound, logs the file and its cap once", () => {
    const h = hostileProject();
    writeFile(join(h.project, ".aioson", "rules", "naming.md"), namingRule("KEPT-RULE"));
    // 96 MiB of one rule, most of it a hole: a few bytes on disk (a repeated line is about 100 KB in git).
    const huge = join(h.project, ".aioson", "rules", "huge.md");
    writeFile(huge, namingRule("HUGE-RULE"));
    truncateSync(huge, 96 * 1024 * 1024);
    const feeder = `printf '%s' '${JSON.stringify(namingWrite(h.project)).replaceAll("'", "'\\''")}'`;
    for (let call = 0; call < 2; call++) {
      const measured = peakRss(feeder, ["context:guard", h.project, "--json"], h);
      expect(measured.code).toBe(0);
      expect(measured.peakKiB).toBeLessThan(PEAK_BOUND_KIB);
      expect(measured.stdout).toContain("KEPT-RULE");
      expect(measured.stdout).not.toContain("HUGE-RULE");
    }
    expect(skippedLines(h, ".aioson/rules/huge.md")).toEqual([expect.stringMatching(/ read skipped \.aioson\/rules\/huge\.md: larger than 1048576 bytes$/)]);
  });

  test("a FIFO as a rule file never blocks context:guard", async () => {
    const h = hostileProject();
    writeFile(join(h.project, ".aioson", "rules", "naming.md"), namingRule("KEPT-RULE"));
    expect(Bun.spawnSync(["mkfifo", join(h.project, ".aioson", "rules", "fifo.md")]).exitCode).toBe(0);
    const run = await runBounded(["context:guard", h.project, "--json"], { h, stdin: JSON.stringify(namingWrite(h.project)) });
    expect(run.timedOut).toBe(false);
    expect(run.stdout).toContain("KEPT-RULE");
    expect(skippedLines(h, ".aioson/rules/fifo.md")).toEqual([expect.stringContaining("a FIFO, not a file")]);
  });

  test("a folder of 200 symlinked documents names 20 of them and one line for the rest, and a second call adds nothing", () => {
    const h = hostileProject();
    const docs = join(h.project, ".aioson", "docs");
    mkdirSync(docs);
    writeFile(join(h.outside, "x.md"), "# outside\n");
    for (let i = 0; i < 200; i++) symlinkSync(join(h.outside, "x.md"), join(docs, `d${String(i).padStart(3, "0")}.md`));
    for (let call = 0; call < 2; call++) expect(runAioson(["context:brief", h.project, "--task=payment", "--json"], { home: h.home }).code).toBe(0);
    const lines = hookLogOf(h).split("\n").filter((line) => line.includes(" read skipped "));
    expect(lines).toHaveLength(21);
    expect(lines.at(-1)).toEndWith(" read skipped more project files than the 20 named before this line");
  });

  test("a documents folder too large to list (tens of thousands of empty files) is named, not listed", () => {
    const h = hostileProject();
    const docs = join(h.project, ".aioson", "docs");
    mkdirSync(docs);
    // Empty files until the folder's own size passes the bound (about 40,000 on ext4): git stores them in a few KB.
    for (let i = 0; statSync(docs).size <= 1024 * 1024 && i < 400_000; i++) writeFileSync(join(docs, `n${i}.md`), "");
    const brief = runAioson(["context:brief", h.project, "--task=payment", "--json"], { home: h.home });
    expect(brief.code).toBe(0);
    expect((brief.json as { invalid_rules: unknown[] }).invalid_rules).toEqual([{ path: ".aioson/docs", problem: "not read: a folder larger than 1048576 bytes as its file system counts them, not listed" }]);
    expect(skippedLines(h, ".aioson/docs")).toHaveLength(1);
  }, 60_000);

  test("past 2,000 documents the rest is left out and said once", () => {
    const h = hostileProject();
    const docs = join(h.project, ".aioson", "docs");
    mkdirSync(docs);
    for (let i = 0; i < 2_050; i++) writeFileSync(join(docs, `d${String(i).padStart(4, "0")}.md`), "# note\n");
    const brief = runAioson(["context:brief", h.project, "--task=payment", "--json"], { home: h.home });
    expect(brief.code).toBe(0);
    const invalid = (brief.json as { invalid_rules: { path: string; problem: string }[] }).invalid_rules;
    expect(invalid).toEqual([{ path: ".aioson/docs/d2000.md", problem: expect.stringContaining("at most 2000 documents") }]);
    expect(skippedLines(h, ".aioson/docs/d2000.md")).toHaveLength(1);
  });
});
