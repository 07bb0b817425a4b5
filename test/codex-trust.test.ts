/**
 * Codex hook trust (issue 13 item 3): hooks:doctor computes the hash Codex 0.169 records for each handler and compares
 * it with the records the real Codex TUI wrote (test/fixtures/codex-trust/, see its README).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { codexTrustHash } from "../src/install/codex-trust.ts";
import { cleanupTemp, runAioson, tempDir } from "./helpers.ts";

afterAll(cleanupTemp);

type Json = Record<string, any>;
const FIXTURE = join(import.meta.dir, "fixtures", "codex-trust");
const RECORDED_HOME = "/tmp/cx/w/codex";

/** The Windows lines of the version the TUI ran (the lookup switch twice), and this version's (issue 23). */
const RECORDED_WINDOWS_PREFIX = "cmd.exe --% /d /c set NoDefaultCurrentDirectoryInExePath=1& set NoDefaultCurrentDirectoryInExePath=1& aioson ";
const CURRENT_WINDOWS_PREFIX = "cmd.exe --% /d /c type nul& set NoDefaultCurrentDirectoryInExePath=1& aioson ";

/**
 * A temp HOME whose CODEX_HOME holds the TUI's files, keys rewritten to the temp path; `asRecorded` keeps the
 * Windows lines of the version the TUI ran, else they are this version's (off Windows no hash depends on them).
 */
function trustedHome(asRecorded = false): { home: string; codex: string; hooks: string } {
  const home = tempDir("aioson-home-");
  const codex = join(home, "codex");
  mkdirSync(codex);
  const recordedHooks = readFileSync(join(FIXTURE, "hooks.json"), "utf8");
  writeFileSync(join(codex, "hooks.json"), asRecorded ? recordedHooks : recordedHooks.replaceAll(RECORDED_WINDOWS_PREFIX, CURRENT_WINDOWS_PREFIX));
  writeFileSync(join(codex, "config.toml"), readFileSync(join(FIXTURE, "config.toml"), "utf8").replaceAll(`"${RECORDED_HOME}/`, `"${codex}/`));
  return { home, codex, hooks: join(codex, "hooks.json") };
}

function doctor(home: string, codex: string): Json {
  const run = runAioson(["hooks:doctor", "--tool=codex", "--json"], { home, env: { CODEX_HOME: codex } });
  return run.json as Json;
}

const trustOf = (report: Json) => (report.harnesses[0].trust as Json[]).map((t) => [t.event, t.state]);
const recorded = (text: string, key: string) => new RegExp(`\\[hooks\\.state\\."${key.replaceAll(".", "\\.")}"\\]\\ntrusted_hash = "(sha256:[0-9a-f]+)"`).exec(text)?.[1];

describe("Codex trust hash", () => {
  test("equals what the real Codex TUI recorded for every handler, the user's included", () => {
    const hooks = JSON.parse(readFileSync(join(FIXTURE, "hooks.json"), "utf8")).hooks as Record<string, Json[]>;
    const config = readFileSync(join(FIXTURE, "config.toml"), "utf8");
    let compared = 0;
    for (const [event, groups] of Object.entries(hooks)) {
      groups.forEach((group, g) => {
        const snake = event.replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase();
        expect(codexTrustHash(event, group.matcher, group.hooks[0], false)).toBe(recorded(config, `${RECORDED_HOME}/hooks.json:${snake}:${g}:0`)!);
        compared++;
      });
    }
    expect(compared).toBe(7);
  });

  test("on Windows the hash is of commandWindows, the command Codex runs there", () => {
    const handler = { type: "command", command: "a", commandWindows: "b", timeout: 30 };
    expect(codexTrustHash("Stop", undefined, handler, true)).toBe(codexTrustHash("Stop", undefined, { ...handler, command: "b" }, false));
    expect(codexTrustHash("Stop", undefined, handler, true)).not.toBe(codexTrustHash("Stop", undefined, handler, false));
  });
});

describe("hooks:doctor and Codex trust", () => {
  test("records the TUI wrote: every AIOSON handler trusted, no trust issue", () => {
    const { home, codex } = trustedHome();
    const report = doctor(home, codex);
    expect(trustOf(report)).toEqual(["PostToolUse", "UserPromptSubmit", "Stop", "PreCompact", "SessionStart", "SessionEnd"].map((event) => [event, "trusted"]));
    expect(report.issues.map((i: Json) => i.code).filter((c: string) => c.startsWith("codex_"))).toEqual([]);
  });

  test("an identical reinstall leaves the file and trust as they are; another agent makes every handler stale, named with its hash", () => {
    const { home, codex, hooks } = trustedHome();
    const install = (...args: string[]) => runAioson(["hooks:install", "--tool=codex", ...args], { home, env: { CODEX_HOME: codex } });
    const before = statSync(hooks);
    const bytes = readFileSync(hooks, "utf8");
    expect(install().stdout).toContain("Nothing to do");
    expect(statSync(hooks).mtimeMs).toBe(before.mtimeMs);
    expect(readFileSync(hooks, "utf8")).toBe(bytes);
    expect(trustOf(doctor(home, codex)).every(([, state]) => state === "trusted")).toBe(true);

    expect(install("--agent=qa").code).toBe(0);
    const report = doctor(home, codex);
    expect(trustOf(report).every(([, state]) => state === "modified")).toBe(true);
    const stale = report.issues.find((i: Json) => i.code === "codex_trust_stale");
    const config = readFileSync(join(codex, "config.toml"), "utf8");
    expect(stale.message).toContain(`Stop: trusted ${recorded(config, `${codex}/hooks.json:stop:0:0`)}, now sha256:`);
    expect(stale.fix).toContain("/hooks");
    expect(stale.fix).toContain("--dangerously-bypass-hook-trust");
    expect(doctor(home, codex).issues.some((i: Json) => i.code === "codex_untrusted")).toBe(false);
    // The user's group after ours kept its place, so the record Codex keys it by still matches it.
    const groups = JSON.parse(readFileSync(hooks, "utf8")).hooks.PostToolUse as Json[];
    expect(groups[1]).toEqual({ matcher: "Bash", hooks: [{ type: "command", command: "echo user-hook >> /tmp/cx/userhook.log", timeout: 10 }] });
    expect(codexTrustHash("PostToolUse", "Bash", groups[1]!.hooks[0], false)).toBe(recorded(config, `${codex}/hooks.json:post_tool_use:1:0`)!);
  });

  test("upgrading from the lines the TUI trusted rewrites only commandWindows: every handler stays trusted off Windows", () => {
    const { home, codex, hooks } = trustedHome(true);
    expect(readFileSync(hooks, "utf8")).toContain(RECORDED_WINDOWS_PREFIX);
    const commands = (text: string) => Object.values(JSON.parse(text).hooks as Record<string, Json[]>).flatMap((groups) => groups.flatMap((g) => (g.hooks as Json[]).map((h) => h.command)));
    const before = commands(readFileSync(hooks, "utf8"));
    expect(runAioson(["hooks:install", "--tool=codex"], { home, env: { CODEX_HOME: codex } }).code).toBe(0);
    const after = readFileSync(hooks, "utf8");
    expect(after).not.toContain(RECORDED_WINDOWS_PREFIX);
    expect(after).toContain(CURRENT_WINDOWS_PREFIX);
    expect(commands(after)).toEqual(before);
    expect(trustOf(doctor(home, codex)).every(([, state]) => state === "trusted")).toBe(true);
  });

  test("no record: untrusted; enabled = false: disabled; a config.toml that is not TOML counts as no records", () => {
    const { home, codex } = trustedHome();
    const path = join(codex, "config.toml");
    const config = readFileSync(path, "utf8");
    writeFileSync(path, config.replace(/\[hooks\.state\."[^"]*:stop:0:0"\]\ntrusted_hash = "[^"]*"\n/, "").replace(/(\[hooks\.state\."[^"]*:session_end:0:0"\]\n)/, "$1enabled = false\n"));
    const report = doctor(home, codex);
    expect(Object.fromEntries(trustOf(report))).toMatchObject({ Stop: "untrusted", SessionEnd: "disabled", PreCompact: "trusted" });
    expect(report.issues.map((i: Json) => i.code)).toEqual(expect.arrayContaining(["codex_untrusted", "codex_hook_disabled"]));
    writeFileSync(path, "[hooks.state\nnot toml");
    expect(trustOf(doctor(home, codex)).every(([, state]) => state === "untrusted")).toBe(true);
  });
});
