/**
 * hooks:doctor against problems created on purpose. The handlers run through `sh -c` exactly as installed, so
 * `aioson` is whatever PATH says: a stand-in that records events the spec'd way (a row in the temp project's
 * store per hooks:emit) keeps these tests independent of the hooks:emit implementation.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, cleanupTemp, REPO_ROOT, runAioson, tempDir } from "./helpers.ts";

afterAll(cleanupTemp);

type Json = Record<string, any>;

/** The stand-in hooks:emit: one row in the store. */
const INSERT = join(REPO_ROOT, "test", "fixtures", "doctor-insert.ts");

/** A PATH dir with a stand-in aioson: `--version` = version, hooks:emit inserts a row (unless `emits` is false). */
function fakeAioson(home: string, name: string, options: { version?: string; emits?: boolean; sleep?: string } = {}): string {
  const dir = join(home, name);
  mkdirSync(dir, { recursive: true });
  const emit = options.emits === false ? "cat >/dev/null" : `cat >/dev/null; exec "${process.execPath}" "${INSERT}" "$2"`;
  writeFileSync(join(dir, "aioson"), `#!/bin/sh
${options.sleep ? `sleep ${options.sleep}` : ""}
case "$1" in
  --version) echo "aioson ${options.version ?? "0.1.0"} (fake)";;
  hooks:emit) ${emit};;
  *) cat >/dev/null; echo '{}';;
esac
`);
  chmodSync(join(dir, "aioson"), 0o755);
  return dir;
}

function doctor(home: string, pathDirs: string[], args: string[] = [], env: Record<string, string> = {}): { code: number; json: Json; stdout: string } {
  const run = runAioson(["hooks:doctor", "--json", ...args], { home, env: { PATH: [...pathDirs, "/usr/bin", "/bin"].join(":"), ...env } });
  return { code: run.code, json: run.json as Json, stdout: run.stdout };
}

const codes = (json: Json) => json.issues.map((i: Json) => i.code);

function installed(tool: string): string {
  const home = tempDir("aioson-home-");
  expect(runAioson(["hooks:install", `--tool=${tool}`], { home }).code).toBe(0);
  return home;
}

describe("hooks:doctor", () => {
  test("a healthy Claude install: every handler runs, emits land, exit 0", () => {
    const home = installed("claude");
    const result = doctor(home, [fakeAioson(home, "bin")]);
    expect(codes(result.json)).toEqual([]);
    expect(result.code).toBe(0);
    const claude = result.json.harnesses.find((h: Json) => h.tool === "claude");
    expect(claude.handlers.length).toBe(10);
    expect(claude.handlers.filter((h: Json) => h.landed === true).length).toBe(8);
  });

  test("binary not on the PATH the harness sees", () => {
    const home = installed("claude");
    const result = doctor(home, [join(home, "empty")]);
    expect(codes(result.json)).toContain("binary_not_on_path");
    expect(codes(result.json)).toContain("event_not_landed");
    expect(result.code).toBe(1);
  });

  test("a different aioson earlier on PATH, with another version", () => {
    const home = installed("claude");
    const mine = join(home, "mine");
    mkdirSync(mine);
    symlinkSync(BINARY, join(mine, "aioson"));
    const result = doctor(home, [fakeAioson(home, "old", { version: "0.0.9" }), mine], ["--tool=claude"]);
    expect(codes(result.json)).toContain("different_binary_first");
    expect(codes(result.json)).toContain("version_mismatch");
    expect(result.json.issues.find((i: Json) => i.code === "version_mismatch").fix).toContain("0.1.0");
  });

  test("a settings file that does not parse", () => {
    const home = tempDir("aioson-home-");
    mkdirSync(join(home, ".claude"));
    writeFileSync(join(home, ".claude", "settings.json"), '{"hooks": {},}');
    const result = doctor(home, [fakeAioson(home, "bin")]);
    expect(codes(result.json)).toEqual(["config_invalid"]);
    expect(result.code).toBe(1);
  });

  test("timeouts in the wrong unit, handlers of an older install, hooks needing Codex trust", () => {
    const home = installed("codex");
    const hooksPath = join(home, ".codex", "hooks.json");
    const config = JSON.parse(readFileSync(hooksPath, "utf8"));
    config.hooks.PostToolUse[0].hooks[0].timeout = 30000;
    config.hooks.SessionStart.push({ hooks: [{ type: "command", command: "aioson live:start \"$PWD\" --agent=dev" }] });
    writeFileSync(hooksPath, JSON.stringify(config, null, 2));
    const result = doctor(home, [fakeAioson(home, "bin")]);
    expect(codes(result.json)).toEqual(expect.arrayContaining(["timeout_unit", "stale_handlers", "codex_untrusted"]));
    writeFileSync(join(home, ".codex", "config.toml"), Object.entries(config.hooks).flatMap(([event, groups]) =>
      (groups as Json[]).map((_, g) => `[hooks.state."${hooksPath}:${event.replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase()}:${g}:0"]\nenabled = true\ntrusted_hash = "sha256:00"\n`)).join("\n"));
    expect(codes(doctor(home, [fakeAioson(home, "bin")]).json)).not.toContain("codex_untrusted");
  });

  test("hooks written by an older version (events missing) are reported; a --no-guard install is not", () => {
    const home = tempDir("aioson-home-");
    expect(runAioson(["hooks:install", "--tool=claude", "--no-guard"], { home }).code).toBe(0);
    expect(codes(doctor(home, [fakeAioson(home, "bin")]).json)).toEqual([]);
    const path = join(home, ".claude", "settings.json");
    const config = JSON.parse(readFileSync(path, "utf8"));
    delete config.hooks.PostToolUseFailure;
    delete config.hooks.UserPromptSubmit;
    writeFileSync(path, JSON.stringify(config, null, 2));
    const result = doctor(home, [fakeAioson(home, "bin")]);
    expect(codes(result.json)).toEqual(["stale_handlers"]);
    expect(result.json.issues[0].message).toContain("missing PostToolUseFailure (Bash), UserPromptSubmit");
    expect(result.json.issues[0].fix).toBe("aioson hooks:install --tool=claude");
  });

  test("slow hooks: median latency over the threshold", () => {
    const home = installed("codex");
    const result = doctor(home, [fakeAioson(home, "bin", { sleep: "0.05" })], ["--slow-ms=20"]);
    expect(codes(result.json)).toContain("hooks_slow");
  });

  test("OpenCode: the plugin's call is probed as the plugin makes it (PATH or AIOSON_BIN); a stale plugin is reported", () => {
    const home = installed("opencode");
    const bin = fakeAioson(home, "bin");
    const healthy = doctor(home, [bin], ["--tool=opencode"]);
    expect(codes(healthy.json)).toEqual([]);
    expect(healthy.json.harnesses[0].handlers[0]).toMatchObject({ event: "tool.execute.after", exitCode: 0, landed: true });
    const viaEnv = doctor(home, [join(home, "nothing")], ["--tool=opencode"], { AIOSON_BIN: join(bin, "aioson") });
    expect(codes(viaEnv.json)).toEqual(["binary_not_on_path"]);
    const missing = doctor(home, [bin], ["--tool=opencode"], { AIOSON_BIN: join(home, "no-such-aioson") });
    expect(codes(missing.json)).toEqual(["event_not_landed"]);
    expect(missing.json.issues[0].fix).toContain("AIOSON_BIN");
    const plugin = join(home, ".config", "opencode", "plugins", "aioson.js");
    writeFileSync(plugin, readFileSync(plugin, "utf8").replace("const QUEUE_MAX = 16;", "const QUEUE_MAX = 4;"));
    expect(codes(doctor(home, [bin], ["--tool=opencode"]).json)).toEqual(["stale_handlers"]);
  });

  test("Antigravity: lists the known locations and whether ours are among them", () => {
    const home = installed("antigravity");
    mkdirSync(join(home, ".gemini", "config"), { recursive: true });
    writeFileSync(join(home, ".gemini", "config", "hooks.json"), "{}");
    const result = doctor(home, [fakeAioson(home, "bin")], ["--tool=antigravity"]);
    const locations = result.json.antigravityLocations as Json[];
    expect(locations.map((l) => [l.exists, l.hasAioson])).toEqual([[true, true], [true, true], [true, false], [false, false]]);
    expect(codes(result.json)).toEqual(["antigravity_other_location"]);
    expect(result.stdout).not.toContain("Hooks Doctor");
  });
});
