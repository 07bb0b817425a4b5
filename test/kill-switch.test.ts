/**
 * The kill switch (src/core/switch.ts): with `AIOSON=0`, every hook-facing command the harnesses call answers its
 * no-op through the real binary — exit 0, its idle output, stdin left unread, the project untouched (no store opened,
 * no hook-log line, nothing created) — while the same call without the switch does its work.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, cleanupTemp, rows, runAioson, tempDir, tempProject, testEnv } from "./helpers.ts";

afterAll(cleanupTemp);

const HARNESSES = ["claude", "codex", "copilot", "opencode", "antigravity", "gemini"] as const;

/** Every file under `dir` with its size, modification time and content digest. */
function snapshot(dir: string): Record<string, string> {
  const found: Record<string, string> = {};
  const walk = (at: string): void => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      const stat = statSync(path);
      if (stat.isDirectory()) {
        found[`${path}/`] = String(stat.mtimeMs);
        walk(path);
      } else found[path] = `${stat.size}:${stat.mtimeMs}:${createHash("sha256").update(readFileSync(path)).digest("hex")}`;
    }
  };
  walk(dir);
  return found;
}

type Call = { stdout: string; stderr: string; code: number; unread: number };

/**
 * Runs the binary with the payload as a file on stdin. The child shares the file's offset with this process, so
 * what is still readable afterwards is exactly what the command did not read.
 */
function call(project: string, home: string, args: readonly string[], payload: object, env: Record<string, string> = {}): Call {
  const file = join(tempDir("aioson-payload-"), "payload.json");
  const text = JSON.stringify({ cwd: project, ...payload });
  writeFileSync(file, text);
  const fd = openSync(file, "r");
  try {
    const result = Bun.spawnSync([BINARY, ...args], { cwd: project, env: testEnv(home, env), stdin: fd, stdout: "pipe", stderr: "pipe", timeout: 20_000 });
    const rest = Buffer.alloc(text.length + 1);
    const unread = readSync(fd, rest, 0, rest.length, null);
    return { stdout: result.stdout.toString().trim(), stderr: result.stderr.toString(), code: result.exitCode ?? -1, unread };
  } finally {
    closeSync(fd);
  }
}

const WRITE = { hook_event_name: "PostToolUse", session_id: "s-1", tool_name: "Write", tool_input: { file_path: "src/app.ts", content: "export const a = 1;\n" } };
const STOP = { hook_event_name: "Stop", session_id: "s-1", last_assistant_message: "Done: I edited src/app.ts and src/other.ts." };
const COMMIT = { hook_event_name: "PreToolUse", session_id: "s-1", tool_name: "Bash", tool_input: { command: 'git commit -m "added stuff"' } };
const COMPACT = { hook_event_name: "SessionStart", source: "compact", session_id: "s-1" };

/** The guard commands `aioson --help` lists: a guard added later is covered without touching this file. */
function guardCommands(): string[] {
  const help = runAioson(["--help"]).stdout;
  return [...help.matchAll(/^\s+(guard:[a-z-]+)\s/gm)].map((m) => m[1] as string);
}

/** What each hook-facing call must answer when switched off: its contract's "nothing to say". */
function switchedOffCases(): { args: string[]; payload: object; expected: string }[] {
  const cases: { args: string[]; payload: object; expected: string }[] = [
    { args: ["hooks:emit", ".", "--agent=dev", "--source=claude"], payload: WRITE, expected: "" },
    { args: ["hooks:emit", ".", "--then=agent:done", "--agent=dev", "--source=claude"], payload: STOP, expected: "" },
    { args: ["hooks:emit", ".", "--agent=dev", "--source=codex", "--event=SessionEnd"], payload: { session_id: "s-1" }, expected: "" },
    { args: ["hooks:emit", ".", "--agent=dev", "--source=gemini"], payload: { hook_event_name: "BeforeModel", session_id: "s-1" }, expected: "" },
    { args: ["hooks:emit", ".", "--json"], payload: WRITE, expected: JSON.stringify({ ok: true, skipped: true, reason: "switched-off" }, null, 2) },
    { args: ["hooks:recap", ".", "--agent=dev", "--source=claude", "--json"], payload: COMPACT, expected: "{}" },
    { args: ["hooks:recap", ".", "--source=opencode", "--when=always", "--session=s-1", "--json"], payload: COMPACT, expected: "{}" },
    { args: ["hooks:recap", ".", "--when=always"], payload: COMPACT, expected: "" },
    { args: ["context:guard", ".", "--tool=claude", "--agent=auto", "--json"], payload: { ...WRITE, hook_event_name: "PreToolUse" }, expected: "{}" },
    { args: ["context:guard", ".", "--tool=gemini", "--agent=dev", "--json"], payload: { ...WRITE, hook_event_name: "AfterTool" }, expected: "{}" },
    { args: ["guard:stop-guards", ".", "--tool=copilot", "--guards=verify-claims,stop-checklist"], payload: STOP, expected: "" },
    // The exporter a Stop hook starts (src/otel/trigger.ts) and the pruner a session's end starts
    // (src/store/prune-trigger.ts), were they started while the switch is set.
    { args: ["otel:export", ".", "--auto"], payload: {}, expected: "" },
    { args: ["runtime:prune", ".", "--auto"], payload: {}, expected: "" },
  ];
  for (const guard of guardCommands()) {
    if (guard === "guard:stop-guards") continue;
    for (const harness of HARNESSES) {
      const payload = guard === "guard:pre-commit-guard" ? COMMIT : STOP;
      // The idle answers: subagent-audit always prints an object; Antigravity reads an empty PreToolUse answer as a deny.
      const expected = guard === "guard:subagent-audit" ? "{}" : guard === "guard:pre-commit-guard" && harness === "antigravity" ? '{"decision":"allow"}' : "";
      cases.push({ args: [guard, ".", `--tool=${harness}`], payload, expected });
    }
  }
  return cases;
}

/** A project with a rule, a kit config that turns the Stop guards on, and (optionally) a store. */
function richProject(withStore: boolean): string {
  const project = tempProject({
    ".aioson/rules/naming.md": "---\nname: naming\ndescription: Source files use camelCase names\nagents: [dev]\n---\n# Naming\n- Source files in src/ use camelCase names.\n",
    "src/app.ts": "export const a = 0;\n",
  });
  if (withStore) expect(runAioson(["runtime:init", project]).code).toBe(0);
  return project;
}

describe("AIOSON=0 switches every hook-facing command to its no-op", () => {
  for (const withStore of [true, false]) {
    test(`${withStore ? "a project with a store" : "a project without a store"}: every call answers its idle output, reads no stdin and changes nothing`, () => {
      const home = tempDir("aioson-home-");
      const project = richProject(withStore);
      const before = snapshot(project);
      const cases = switchedOffCases();
      expect(cases.length).toBeGreaterThan(60);
      for (const { args, payload, expected } of cases) {
        const run = call(project, home, args, payload, { AIOSON: "0" });
        expect({ args, code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({ args, code: 0, stdout: expected, stderr: "" });
        expect({ args, unread: run.unread }).toEqual({ args, unread: JSON.stringify({ cwd: project, ...payload }).length });
      }
      expect(snapshot(project)).toEqual(before);
      expect(existsSync(join(project, ".aioson", "runtime", "hooks.log"))).toBe(false);
      expect(readdirSync(home)).toEqual([]);
    });
  }

  test("the same calls without the switch read the payload and do their work (the test above can fail)", () => {
    const home = tempDir("aioson-home-");
    const project = richProject(true);
    const emit = call(project, home, ["hooks:emit", ".", "--agent=dev", "--source=claude"], WRITE);
    expect(emit.unread).toBe(0);
    expect(rows(project, "SELECT id FROM execution_events WHERE event_type = 'artifact'").length).toBe(1);
    const guard = call(project, home, ["guard:pre-commit-guard", ".", "--tool=claude"], COMMIT);
    expect(guard.unread).toBe(0);
    expect(JSON.parse(guard.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
    const antigravity = call(project, home, ["guard:pre-commit-guard", ".", "--tool=antigravity"], COMMIT);
    expect(JSON.parse(antigravity.stdout).decision).toBe("deny");
  });

  test("0, false, off and no switch the hooks off, in any case and with spaces; any other value leaves them on", () => {
    const home = tempDir("aioson-home-");
    const project = richProject(false);
    for (const value of ["0", "false", "FALSE", "Off", "no", " 0 "]) {
      const run = call(project, home, ["hooks:emit", ".", "--json"], WRITE, { AIOSON: value });
      expect({ value, reason: JSON.parse(run.stdout).reason }).toEqual({ value, reason: "switched-off" });
    }
    for (const value of ["1", "", "true", "on", "yes", "00"]) {
      const run = call(project, home, ["hooks:emit", ".", "--json"], WRITE, { AIOSON: value });
      expect({ value, reason: JSON.parse(run.stdout).reason ?? null }).toEqual({ value, reason: null });
    }
    expect(rows(project, "SELECT id FROM execution_events WHERE event_type = 'artifact'").length).toBe(6);
  });

  test("the commands people run are not switched off: a user can still uninstall, inspect and record", () => {
    const home = tempDir("aioson-home-");
    const project = richProject(false);
    const status = runAioson(["runtime:init", project, "--json"], { home, env: { AIOSON: "0" } });
    expect(status.code).toBe(0);
    expect(existsSync(join(project, ".aioson", "runtime", "aios.sqlite"))).toBe(true);
    const install = runAioson(["hooks:install", project, "--tool=claude", "--json"], { home, env: { AIOSON: "0" } });
    expect(install.code).toBe(0);
    expect(existsSync(join(home, ".claude", "settings.json"))).toBe(true);
  });

  test("hooks:doctor says so, and runs the handlers without it: they are checked as they work once it is unset", () => {
    const home = tempDir("aioson-home-");
    const bin = join(home, "bin");
    mkdirSync(bin);
    symlinkSync(BINARY, join(bin, "aioson"));
    expect(runAioson(["hooks:install", "--tool=claude"], { home }).code).toBe(0);
    const env = { PATH: `${bin}:/usr/bin:/bin` };
    const off = runAioson(["hooks:doctor", "--tool=claude", "--json"], { home, env: { ...env, AIOSON: "0" } });
    const json = off.json as { issues: { code: string; severity: string }[]; harnesses: { handlers: { ok: boolean; landed: boolean | null }[] }[] };
    expect(off.code).toBe(0);
    expect(json.issues.map((i) => [i.code, i.severity])).toEqual([["hooks_switched_off", "warning"]]);
    const handlers = json.harnesses.flatMap((h) => h.handlers);
    expect(handlers.length).toBeGreaterThan(4);
    expect(handlers.every((h) => h.ok && h.landed !== false)).toBe(true);
    const text = runAioson(["hooks:doctor", "--tool=claude"], { home, env: { ...env, AIOSON: "off" } }).stdout;
    expect(text).toContain("  ⚠ AIOSON=off is set: every aioson hook answers as a no-op and records nothing in this environment");
    expect(text).toContain("fix: Unset it to switch the hooks back on — unset AIOSON");
    const on = runAioson(["hooks:doctor", "--tool=claude", "--json"], { home, env });
    expect((on.json as { issues: unknown[] }).issues).toEqual([]);
  });

  test("live:status says so after spec 11's lines, and its JSON carries hooksSwitchedOff only then", () => {
    const home = tempDir("aioson-home-");
    const project = richProject(true);
    const off = runAioson(["live:status", project], { home, env: { AIOSON: "0" } });
    const lines = off.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe("Live session: none");
    expect(lines.at(-1)).toBe("⚠ AIOSON=0 is set: every aioson hook answers as a no-op and records nothing (set in this shell; unset AIOSON to switch them back on)");
    expect((runAioson(["live:status", project, "--json"], { home, env: { AIOSON: "0" } }).json as Record<string, unknown>).hooksSwitchedOff).toBe(true);
    expect(runAioson(["live:status", project], { home }).stdout).not.toContain("AIOSON");
    expect(runAioson(["live:status", project, "--json"], { home }).json).not.toHaveProperty("hooksSwitchedOff");
  });
});

