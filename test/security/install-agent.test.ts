/**
 * Agent names are validated wherever they come from: `--agent` input, and the agent read back from an existing
 * config (settings.json, hooks.json, the Copilot file, the OpenCode plugin, a guard handler) before it becomes part
 * of a POSIX `command` or a Windows `commandWindows` / `windows` line. A fuzz of agent-like values: nothing invalid
 * or unquoted ever lands in a written file, an invalid installed agent falls back to the default with a warning,
 * and the output never carries the value's control characters.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTemp } from "../helpers.ts";
import { hostileWorld, run, snapshot, userFiles, type World } from "./install-helpers.ts";

afterAll(cleanupTemp);

type Json = Record<string, any>;

/** Values that are not agent ids after spec 0.2/9.2 normalisation (each must be refused or replaced). */
const FUZZ: string[] = [
  "x&&calc", "$(id)", "`id`", "%PATH%", "!x!", "^", '"', "'", "dev'; touch MARK; '", 'dev"&touch MARK&"', "..", "../../etc/passwd",
  "a\u0000b", "\u001b[31mred", "dev\nname", "dev\tx", "a".repeat(5000), "dev name", "dev|x", "dev>x", "dev<x", "(x)", "dev;x",
  "-x", "@", "/", "\\", "dév", "ｄｅｖ", "dev\u202e", "dev\u200b", "--agent=x", "x=y", "dev#x", "dev*", "~", "${HOME}", "dev%",
  "-", "9lives", "", "dev\u0085", "a".repeat(65), "dev^&calc", "dev)", "dev%%PATH%%",
];

const SHELL_QUOTE = (value: string) => `'${value.replaceAll("'", "'\\''")}'`;

/** A C0/C1 control, an escape, a bidi or zero-width character: none may reach the terminal from a config. */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/;

function handlersOf(config: Json): Json[] {
  const found: Json[] = [];
  for (const entries of Object.values(config.hooks ?? {}) as Json[][]) {
    for (const entry of entries) found.push(...(Array.isArray(entry.hooks) ? entry.hooks : [entry]));
  }
  return found;
}

/**
 * The fixed wrappers of a Windows line (src/install/commands.ts), outermost first: Codex's `commandWindows` carries
 * the cmd.exe line behind its cmd.exe prefix and no-op first command, and the cmd.exe line starts with the current-folder
 * lookup switch.
 */
const WINDOWS_WRAPPERS = ["C:\\Windows\\System32\\cmd.exe --% /d /c type nul& ", "set NoDefaultCurrentDirectoryInExePath=1& "];
const cmdLine = (line: string) => WINDOWS_WRAPPERS.reduce((rest, prefix) => (rest.startsWith(prefix) ? rest.slice(prefix.length) : rest), line);

/** Every `--agent=` value in the aioson lines of a file: quoted POSIX values unquoted, bare Windows values as they are. */
function agentsIn(config: Json): string[] {
  return handlersOf(config).flatMap((h) => [h.command, h.commandWindows, h.windows].filter((c): c is string => typeof c === "string").map(cmdLine).filter((c) => c.startsWith("aioson ")))
    .flatMap((line) => [...line.matchAll(/--agent=('[^']*'|\S+)/g)].map((m) => m[1]!.replace(/^'|'$/g, "")));
}

/** A Windows line aioson writes: no cmd.exe or PowerShell metacharacter before the fixed tail. */
function assertSafeWindowsLines(config: Json): void {
  for (const h of handlersOf(config)) {
    for (const line of [h.commandWindows, h.windows].filter((c): c is string => typeof c === "string")) {
      expect(cmdLine(line).replace(/ (2>nul )?& exit \/b 0$/, "")).toMatch(/^aioson [a-z:-]+ \. [a-zA-Z0-9 .:=,|-]*$/);
    }
  }
}

/** Configs as an installer (or a tampering project) left them, with `value` as the agent of every aioson line. */
function plantInstalled(world: World, value: string): void {
  const files = userFiles(world);
  const posix = (sub: string, source: string) => `aioson ${sub} "$PWD" --agent=${SHELL_QUOTE(value)} --source='${source}' 2>/dev/null || true`;
  const bare = (sub: string, source: string) => `aioson ${sub} . --agent=${value} --source=${source} 2>nul & exit /b 0`;
  writeFileSync(files.claude, JSON.stringify({ hooks: {
    PreToolUse: [{ matcher: "Write", hooks: [{ type: "command", command: `aioson context:guard "$PWD" --tool=claude --agent=${SHELL_QUOTE(value)} --json 2>/dev/null || true` }] },
      { matcher: "Bash", hooks: [{ type: "command", command: `aioson guard:pre-commit-guard "$PWD" --tool=claude --agent=${SHELL_QUOTE(value)} 2>/dev/null || true` }] }],
    PostToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: posix("hooks:emit", "claude") }, { type: "command", command: "echo user" }] }],
  } }));
  // The case: the bare `--agent=x&&calc` of a Codex command.
  writeFileSync(files.codex, JSON.stringify({ hooks: { PostToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `aioson hooks:emit "$PWD" --agent=${value} --source='codex' 2>/dev/null || true`, commandWindows: bare("hooks:emit", "codex") }] }] } }));
  writeFileSync(files.antigravity, JSON.stringify({ hooks: { Stop: [{ type: "command", command: posix("hooks:emit --then=agent:done", "antigravity") }] } }));
  mkdirSync(join(world.project, ".github", "hooks"), { recursive: true });
  writeFileSync(join(world.project, ".github", "hooks", "aioson.json"), JSON.stringify({ hooks: { Stop: [{ type: "command", command: posix("hooks:emit --then=agent:done", "copilot"), windows: bare("hooks:emit --then=agent:done", "copilot") }] } }));
}

/** Turns a real generated plugin into one whose baked-in agent is `value`. */
function plantPlugin(world: World, value: string): void {
  const path = userFiles(world).plugin;
  const text = readFileSync(path, "utf8").replace(/^const AGENT = .*;$/m, `const AGENT = ${JSON.stringify(value)};`);
  writeFileSync(path, text);
}

describe("--agent input", () => {
  for (const value of FUZZ.filter((v) => !v.includes("\u0000"))) {
    test(`--agent=${JSON.stringify(value).slice(0, 40)} is refused before anything is written`, () => {
      const world = hostileWorld();
      const before = snapshot(world.root);
      const result = run(world, ["hooks:install", ".", "--tool=claude,codex,antigravity,opencode,copilot", `--agent=${value}`, "--json"]);
      expect(result.code).toBe(1);
      expect(result.json).toMatchObject({ ok: false, reason: "invalid_agent_name" });
      expect(snapshot(world.root)).toEqual(before);
      const human = run(world, ["hooks:install", "--tool=claude", `--agent=${value}`]);
      expect(human.stdout).toStartWith("Invalid agent name: invalid agent name \"");
      expect(human.stdout.trimEnd()).not.toMatch(CONTROL);
      expect(human.stdout.length).toBeLessThan(400);
    });
  }

  test("normalisation still accepts what spec 9.2 accepts", () => {
    for (const [input, id] of [["@QA", "qa"], ["/dev", "dev"], ["@pair", "deyvin"], [" dev\r", "dev"], ["custom-agent-2", "custom-agent-2"], ["a".repeat(64), "a".repeat(64)]]) {
      const world = hostileWorld();
      expect(run(world, ["hooks:install", "--tool=codex", `--agent=${input}`, "--json"]).json).toMatchObject({ agentName: id });
    }
  });
});

describe("agents read back from installed configs", () => {
  // An empty `--agent=''` is no agent at all (the default, without a warning).
  for (const value of FUZZ.filter((v) => v !== "")) {
    test(`installed agent ${JSON.stringify(value).slice(0, 40)}: replaced by the default with a warning, nothing unquoted written`, () => {
      const world = hostileWorld();
      expect(run(world, ["hooks:install", "--tool=opencode"]).code).toBe(0);
      plantPlugin(world, value);
      plantInstalled(world, value);
      const result = run(world, ["hooks:install", ".", "--tool=claude,codex,antigravity,opencode,copilot", "--with=pre-commit-guard"]);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("names an invalid agent; using the default (@dev) instead");
      expect(result.stdout).toContain("an installed guard handler names an invalid agent; it is not carried over");
      expect(result.stdout).not.toMatch(CONTROL);
      const files = userFiles(world);
      const configs = [files.claude, files.codex, files.antigravity, join(world.project, ".agents", "hooks.json"), join(world.project, ".github", "hooks", "aioson.json")].map((p) => JSON.parse(readFileSync(p, "utf8")) as Json);
      for (const config of configs) {
        for (const agent of agentsIn(config)) expect(["dev", "auto"]).toContain(agent);
        expect(agentsIn(config)).toContain("dev");
        assertSafeWindowsLines(config);
      }
      expect(agentsIn(configs[0]!).filter((a) => a === "auto")).toHaveLength(1);
      expect(handlersOf(configs[0]!).map((h) => h.command)).toContain("echo user");
      expect(readFileSync(files.plugin, "utf8")).toMatch(/^const AGENT = "dev";$/m);
    });
  }

  test("the written POSIX lines run as one aioson call each with the default agent (no injected command runs)", () => {
    const world = hostileWorld();
    const marker = join(world.outside, "MARK");
    plantInstalled(world, `dev'; touch ${marker}; '`);
    expect(run(world, ["hooks:install", ".", "--tool=claude,codex,antigravity,copilot"]).code).toBe(0);
    const bin = join(world.root, "fake-bin");
    mkdirSync(bin);
    const log = join(world.outside, "calls.log");
    writeFileSync(join(bin, "aioson"), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\n`);
    chmodSync(join(bin, "aioson"), 0o755);
    const files = userFiles(world);
    const lines = [files.claude, files.codex, join(world.project, ".github", "hooks", "aioson.json")].flatMap((p) => handlersOf(JSON.parse(readFileSync(p, "utf8"))).map((h) => h.command as string));
    for (const line of lines) Bun.spawnSync(["/bin/sh", "-c", line], { cwd: world.project, env: { PATH: `${bin}:/usr/bin:/bin`, PWD: world.project } });
    expect(readdirSync(world.outside).sort()).toEqual(["calls.log"]);
    const calls = readFileSync(log, "utf8").trimEnd().split("\n");
    expect(calls.length).toBe(lines.filter((l) => l.startsWith("aioson ")).length);
    for (const call of calls) if (call.includes("--agent=")) expect(call).toMatch(/--agent=(dev|auto)( |$)/);
  });

  test("valid installed agents are kept (spec 9.2): the telemetry agent and the guard's", () => {
    const world = hostileWorld();
    expect(run(world, ["hooks:install", "--tool=claude,codex", "--agent=qa", "--with=pre-commit-guard"]).code).toBe(0);
    const again = run(world, ["hooks:install", "--tool=claude,codex"]);
    expect(again.stdout).not.toContain("invalid agent");
    expect(again.stdout).toContain("Nothing to do");
    for (const path of [userFiles(world).claude, userFiles(world).codex]) expect(new Set(agentsIn(JSON.parse(readFileSync(path, "utf8"))))).toEqual(new Set(["qa"]));
  });
});
