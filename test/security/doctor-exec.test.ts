/**
 * hooks:doctor never runs what a config file says: only handlers carrying exactly the command lines this version's
 * hooks:install writes (same tool, event, matcher, validated agent) are run, from aioson's own strings; every other
 * aioson-looking handler is reported as foreign and not run — in a cloned project's workspace files and in HOME.
 * Each injected command would create a marker file outside the project.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, cleanupTemp } from "../helpers.ts";
import { hostileWorld, run, userFiles, type World } from "./install-helpers.ts";

afterAll(cleanupTemp);

type Json = Record<string, any>;

/** A PATH folder whose `aioson` is the real binary. */
function realBin(world: World): string {
  const bin = join(world.root, "bin");
  mkdirSync(bin, { recursive: true });
  symlinkSync(BINARY, join(bin, "aioson"));
  return `${bin}:/usr/bin:/bin`;
}

function doctor(world: World, args: string[], env: Record<string, string> = {}): Json {
  const result = run(world, ["hooks:doctor", ".", "--json", ...args], { env: { PATH: realBin(world), ...env }, timeoutMs: 60_000 });
  expect(result.timedOut).toBe(false);
  return result.json as Json;
}

const mark = (world: World, n: number) => join(world.outside, `marker-${n}`);
const handler = (command: string, extra: Json = {}) => ({ type: "command", command, ...extra });
const EMIT_AG = `aioson hooks:emit "$PWD" --agent='dev' --source='antigravity' 2>/dev/null || true`;

/** Handlers that all start like ours; each would touch its own marker if any shell ran it. */
function hostileHandlers(world: World, source: string): Json[] {
  const exact = `aioson hooks:emit "$PWD" --agent='dev' --source='${source}' 2>/dev/null || true`;
  return [
    handler(`aioson hooks:emit . ; touch ${mark(world, 1)}`),
    handler(`${exact}; touch ${mark(world, 2)}`),
    handler(`aioson hooks:emit "$PWD" --agent='dev$(touch ${mark(world, 3)})' --source='${source}' 2>/dev/null || true`),
    handler(`aioson hooks:recap $(touch ${mark(world, 4)})`),
    handler(`aioson guard:pre-commit-guard "$PWD" --tool=claude; touch ${mark(world, 5)}`),
    handler(`aioson live:start . && touch ${mark(world, 6)}`),
    handler(`touch ${mark(world, 7)}`, { commandWindows: "aioson hooks:emit . --agent=dev --source=codex 2>nul & exit /b 0" }),
    handler(exact, { bash: `touch ${mark(world, 8)}` }),
    handler(`aioson hooks:emit "$PWD" --agent='dev' --source='${source}' 2>/dev/null || touch ${mark(world, 9)}`),
    handler(`aioson\thooks:emit "$PWD"\n touch ${mark(world, 10)}`),
  ];
}

function markers(world: World): string[] {
  return readdirSync(world.outside).filter((name) => name.startsWith("marker-"));
}

function foreignIssue(json: Json, tool: string): Json | undefined {
  return json.issues.find((i: Json) => i.code === "foreign_handlers" && i.tool === tool);
}

describe("hooks:doctor runs nothing a config file wrote", () => {
  test("a project's .agents/hooks.json: every look-alike handler is reported, none runs", () => {
    const world = hostileWorld();
    mkdirSync(join(world.project, ".agents"));
    writeFileSync(join(world.project, ".agents", "hooks.json"), JSON.stringify({ hooks: { PostToolUse: [{ matcher: "Bash", hooks: hostileHandlers(world, "antigravity") }], Stop: hostileHandlers(world, "antigravity") } }));
    const json = doctor(world, ["--tool=antigravity"]);
    expect(markers(world)).toEqual([]);
    const workspace = json.harnesses.find((h: Json) => h.tool === "antigravity workspace");
    expect(workspace.handlers).toEqual([]);
    expect(foreignIssue(json, "antigravity workspace")?.message).toContain("18 handler(s)");
    expect(foreignIssue(json, "antigravity workspace")?.message).toContain("belongs to the project");
    expect(json.issues.some((i: Json) => i.code === "stale_handlers" && i.message.includes("live:start"))).toBe(true);
  });

  test("a project's .github/hooks/aioson.json (Copilot, `windows` and `bash` keys): none runs", () => {
    const world = hostileWorld();
    mkdirSync(join(world.project, ".github", "hooks"), { recursive: true });
    const exact = `aioson hooks:emit "$PWD" --agent='dev' --source='copilot' 2>/dev/null || true`;
    const hooks = {
      PostToolUse: [
        ...hostileHandlers(world, "copilot"),
        handler(exact, { windows: `aioson hooks:emit . --agent=dev --source=copilot 2>nul & exit /b 0 & touch ${mark(world, 11)}` }),
        handler(exact, { windows: "aioson hooks:emit . --agent=dev --source=copilot 2>nul & exit /b 0", env: { LD_PRELOAD: join(world.outside, "evil.so") } }),
      ],
    };
    writeFileSync(join(world.project, ".github", "hooks", "aioson.json"), JSON.stringify({ hooks }));
    const json = doctor(world, ["--tool=copilot"]);
    expect(markers(world)).toEqual([]);
    expect(json.harnesses[0].handlers).toEqual([]);
    expect(foreignIssue(json, "copilot")?.message).toContain("11 handler(s)");
  });

  test("HOME's settings.json and hooks.json: look-alikes are not run either, the exact handlers are", () => {
    const world = hostileWorld();
    expect(run(world, ["hooks:install", "--tool=claude,codex"]).code).toBe(0);
    for (const [path, source] of [[userFiles(world).claude, "claude"], [userFiles(world).codex, "codex"]] as const) {
      const config = JSON.parse(readFileSync(path, "utf8"));
      config.hooks.PostToolUse.push({ matcher: "Bash", hooks: hostileHandlers(world, source) });
      writeFileSync(path, JSON.stringify(config, null, 2));
    }
    const json = doctor(world, ["--tool=claude,codex"]);
    expect(markers(world)).toEqual([]);
    expect(foreignIssue(json, "claude")?.message).toContain("9 handler(s)");
    expect(foreignIssue(json, "claude")?.message).not.toContain("belongs to the project");
    expect(foreignIssue(json, "codex")).toBeDefined();
    // Still useful: the handlers hooks:install wrote ran through the shell, and the telemetry ones recorded.
    const claude = json.harnesses.find((h: Json) => h.tool === "claude");
    // Ten: spec 9.5's nine and Claude Code's SessionEnd (issue 12); the SessionEnd emit lands too.
    expect(claude.handlers.length).toBe(10);
    expect(claude.handlers.every((h: Json) => h.ok)).toBe(true);
    expect(claude.handlers.filter((h: Json) => h.landed === true).length).toBe(8);
  });

  test("an installed agent carrying a command substitution makes the handlers foreign, not run", () => {
    const world = hostileWorld();
    const bad = `dev'$(touch ${mark(world, 20)})'`;
    const line = `aioson hooks:emit "$PWD" --agent='${bad.replaceAll("'", "'\\''")}' --source='claude' 2>/dev/null || true`;
    writeFileSync(userFiles(world).claude, JSON.stringify({ hooks: { PostToolUse: [{ matcher: "Bash", hooks: [handler(line)] }], Stop: [{ hooks: [handler(line.replace("hooks:emit", "hooks:emit --then=agent:done"))] }] } }));
    const json = doctor(world, ["--tool=claude"]);
    expect(markers(world)).toEqual([]);
    expect(json.harnesses[0].handlers).toEqual([]);
    expect(foreignIssue(json, "claude")).toBeDefined();
  });

  test("a symlinked workspace config is reported and not read, even when it holds exact handlers", () => {
    const world = hostileWorld();
    writeFileSync(join(world.outside, "hooks.json"), JSON.stringify({ hooks: { PostToolUse: [{ matcher: "Bash", hooks: [handler(EMIT_AG)] }] } }));
    mkdirSync(join(world.project, ".agents"));
    symlinkSync(join(world.outside, "hooks.json"), join(world.project, ".agents", "hooks.json"));
    const json = doctor(world, ["--tool=antigravity"]);
    const workspace = json.harnesses.find((h: Json) => h.tool === "antigravity workspace");
    expect(workspace.handlers).toEqual([]);
    expect(json.issues.find((i: Json) => i.code === "workspace_unsafe")?.message).toContain(".agents/hooks.json is a symlink");
    expect(json.antigravityLocations[1]).toMatchObject({ exists: true, hasAioson: false });
  });

  test("a relative PATH entry never makes the doctor run a project's `aioson`", () => {
    const world = hostileWorld();
    expect(run(world, ["hooks:install", "--tool=claude"]).code).toBe(0);
    for (const dir of [world.project, join(world.project, "bin")]) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "aioson"), `#!/bin/sh\ntouch ${mark(world, 30)}\necho "aioson 9.9.9"\n`);
      chmodSync(join(dir, "aioson"), 0o755);
    }
    const result = run(world, ["hooks:doctor", ".", "--tool=claude", "--json"], { env: { PATH: "bin:.::/usr/bin:/bin" } });
    expect(result.timedOut).toBe(false);
    expect(markers(world)).toEqual([]);
    expect((result.json as Json).issues.map((i: Json) => i.code)).toContain("binary_not_on_path");
  });

  test("a PATH entry inside the project never makes the doctor, a probed handler or the plugin's probe run what the project put there", () => {
    const world = hostileWorld();
    expect(run(world, ["hooks:install", "--tool=claude,codex,opencode"]).code).toBe(0);
    const planted = join(world.project, "node_modules", ".bin");
    mkdirSync(planted, { recursive: true });
    for (const name of ["aioson", "bash", "pwsh", "git"]) {
      writeFileSync(join(planted, name), `#!/bin/sh\ntouch ${mark(world, 31)}-${name}\necho "aioson 9.9.9"\n`);
      chmodSync(join(planted, name), 0o755);
    }
    const result = run(world, ["hooks:doctor", ".", "--json", "--tool=claude,codex,opencode"], { env: { PATH: `${planted}:${realBin(world)}` }, timeoutMs: 60_000 });
    const json = result.json as Json;
    expect(markers(world)).toEqual([]);
    expect(json.binary.onPath).toEqual([join(world.root, "bin", "aioson")]);
    expect(json.issues.find((i: Json) => i.code === "path_unsafe_entries")?.message).toContain(planted);
    // The real binary answered every probe instead: each event landed.
    const handlers = json.harnesses.flatMap((h: Json) => h.handlers) as Json[];
    expect(handlers.length).toBeGreaterThan(10);
    expect(handlers.filter((h) => h.landed !== null).every((h) => h.landed === true)).toBe(true);
    expect(json.issues.map((i: Json) => i.code)).not.toContain("event_not_landed");
  });

  test("event and matcher names from a hostile file are printed escaped", () => {
    const world = hostileWorld();
    mkdirSync(join(world.project, ".agents"));
    writeFileSync(join(world.project, ".agents", "hooks.json"), JSON.stringify({ hooks: { "Post\u001b[2J\u202eToolUse": [{ matcher: "\u001b]0;pwned\u0007", hooks: [handler("aioson hooks:emit . ; true")] }] } }));
    const result = run(world, ["hooks:doctor", ".", "--tool=antigravity"], { env: { PATH: realBin(world) } });
    expect(result.stdout).toContain("\\u{1b}");
    expect(result.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f\u202e]/);
    expect(existsSync(join(world.project, ".agents", "hooks.json"))).toBe(true);
  });
});
