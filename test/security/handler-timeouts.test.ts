/**
 * Issue 25 (a cloned repository is hostile, round 2), item 2: every hook handler aioson installs carries a timeout, in
 * the key and unit its harness reads (harness-protocols §1.10, §2.3, §4.2, §4.4; real-harnesses §5; VS Code's hooks
 * reference). Without one, a handler held by a hostile project ran under the harness's default: 10 minutes of the
 * agent's time on Claude Code. Each handler's value is sized for its command; Codex keeps spec 9.6's, since its trust
 * hash covers `timeout`.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { BINARY, cleanupTemp, runAioson, tempDir, tempProject } from "../helpers.ts";

afterAll(cleanupTemp);

type Json = Record<string, unknown>;
type Found = { event: string; handler: Json };

/** Seconds each built-in guard gets (src/kit/catalog.ts); the five Stop guards share Copilot's one handler. */
const GUARD_SECONDS: Readonly<Record<string, number>> = {
  "pre-commit-guard": 10,
  "verify-claims": 30,
  "context-confidence-check": 30,
  "stop-checklist": 30,
  "output-format": 30,
  "skill-feedback": 30,
  "stop-guards": 30,
  "subagent-audit": 10,
  "lesson-injector": 10,
  "session-context": 15,
  "context-save": 30,
};

/** The seconds a handler's command is given (Codex: spec 9.6's 30 for every hooks:emit but SessionEnd's 3). */
function expectedSeconds(command: string, codex: boolean): number {
  const guard = /\bguard:([a-z-]+)/.exec(command)?.[1];
  if (guard) return GUARD_SECONDS[guard] as number;
  if (command.includes("context:guard")) return 15;
  if (command.includes("--event=SessionEnd")) return 3;
  if (command.includes("hooks:recap")) return 30;
  if (codex) return 30;
  return command.includes("--then=agent:done") ? 15 : 10;
}

/** Our handlers in a hooks tree: inside matcher groups or flat in the event array. */
function ours(hooks: Json): Found[] {
  return Object.entries(hooks).flatMap(([event, entries]) =>
    (entries as Json[]).flatMap((entry) => (Array.isArray(entry.hooks) ? (entry.hooks as Json[]) : [entry]).map((handler) => ({ event, handler }))),
  ).filter(({ handler }) => String(handler.command).startsWith("aioson "));
}

function hooksOf(path: string): Json {
  return (JSON.parse(readFileSync(path, "utf8")) as { hooks: Json }).hooks;
}

/** Every harness installed with every guard, in a temp HOME. */
function installAll(): { home: string; project: string } {
  const home = tempDir("aioson-home-");
  const project = tempProject();
  const env = { CLAUDE_CONFIG_DIR: join(home, "claude"), CODEX_HOME: join(home, "codex"), XDG_CONFIG_HOME: join(home, "xdg") };
  const run = runAioson(["hooks:install", project, "--tool=claude,codex,antigravity,gemini,copilot", "--with=all"], { home, env, cwd: project });
  expect(run.code).toBe(0);
  return { home, project };
}

describe("every installed handler has a timeout its harness reads", () => {
  const { home, project } = installAll();
  const label = (found: Found) => `${found.event} ${String(found.handler.command)}`;

  test.each([
    ["Claude Code", () => join(home, "claude", "settings.json"), false],
    ["Codex", () => join(home, "codex", "hooks.json"), true],
    ["Antigravity global", () => join(home, ".gemini", "antigravity", "hooks.json"), false],
    ["Antigravity workspace", () => join(project, ".agents", "hooks.json"), false],
  ])("%s: `timeout` in seconds, sized for the command", (_harness, path, codex) => {
    const found = ours(hooksOf(path()));
    expect(found.length).toBeGreaterThan(4);
    for (const item of found) expect([label(item), item.handler.timeout]).toEqual([label(item), expectedSeconds(String(item.handler.command), codex)]);
  });

  test("Gemini CLI: `timeout` in milliseconds", () => {
    const found = ours(hooksOf(join(home, ".gemini", "settings.json")));
    expect(found.length).toBeGreaterThan(4);
    // Gemini's one-line commands name the guard without `"$PWD"`; the same table applies.
    for (const item of found) expect([label(item), item.handler.timeout]).toEqual([label(item), expectedSeconds(String(item.handler.command), false) * 1000]);
  });

  test("Copilot: VS Code's `timeout` and Copilot CLI's `timeoutSec`, both in seconds", () => {
    const found = ours(hooksOf(join(project, ".github", "hooks", "aioson.json")));
    expect(found.length).toBeGreaterThan(4);
    for (const item of found) {
      const seconds = expectedSeconds(String(item.handler.command), false);
      expect([label(item), item.handler.timeout, item.handler.timeoutSec]).toEqual([label(item), seconds, seconds]);
    }
  });

  test("hooks:doctor takes every one of them for ours (Copilot's `timeoutSec` included) and finds none in the wrong unit", () => {
    // The handlers run the `aioson` on PATH: this build's.
    const env = { CLAUDE_CONFIG_DIR: join(home, "claude"), CODEX_HOME: join(home, "codex"), XDG_CONFIG_HOME: join(home, "xdg"), PATH: [dirname(BINARY), "/usr/bin", "/bin"].join(":") };
    const doctor = runAioson(["hooks:doctor", project, "--json"], { home, env, cwd: project, timeoutMs: 60_000 });
    const report = doctor.json as { harnesses: Array<{ tool: string; handlers?: Array<{ ok: boolean }> }>; issues: Array<{ code: string }> };
    expect(report.issues.map((issue) => issue.code).filter((code) => ["timeout_unit", "foreign_handlers", "stale_handlers"].includes(code))).toEqual([]);
    const copilot = report.harnesses.find((harness) => harness.tool === "copilot");
    expect(copilot?.handlers?.length).toBe(ours(hooksOf(join(project, ".github", "hooks", "aioson.json"))).length);
    expect(copilot?.handlers?.every((handler) => handler.ok)).toBe(true);
  }, 60_000);
});
