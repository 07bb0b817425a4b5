/**
 * Reinstalls never grow a file: any sequence of installs with other agents, --no-guard toggles, --with= changes and
 * uninstalls over compact one-line and indented configs holding user hooks keeps the user's hooks, keeps the size
 * of one configuration the same every time it comes back, and uninstall gives back the original bytes. A killed
 * install leaves no temp file behind after the next run, and only aioson's own stale temp files are removed.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { BINARY, cleanupTemp, testEnv } from "../helpers.ts";
import { hostileWorld, run, userFiles, type World } from "./install-helpers.ts";

afterAll(cleanupTemp);

const USER_CLAUDE = { theme: "dark", hooks: { PostToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo user-bash" }] }], Stop: [{ hooks: [{ type: "command", command: "notify-send done" }] }] } };
const USER_CODEX = { hooks: { PostToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "log-it", timeout: 5 }] }] } };
const USER_COPILOT = { hooks: { PostToolUse: [{ type: "command", command: "npx prettier --check ." }] } };

type Target = { name: string; tool: string; path: (w: World) => string; user: unknown; commands: string[] };

const TARGETS: Target[] = [
  { name: "settings.json", tool: "claude", path: (w) => userFiles(w).claude, user: USER_CLAUDE, commands: ["echo user-bash", "notify-send done"] },
  { name: "codex hooks.json", tool: "codex", path: (w) => userFiles(w).codex, user: USER_CODEX, commands: ["log-it"] },
  { name: ".github/hooks/aioson.json", tool: "copilot", path: (w) => join(w.project, ".github", "hooks", "aioson.json"), user: USER_COPILOT, commands: ["npx prettier --check ."] },
];

const STYLES: [string, (value: unknown) => string][] = [
  ["compact one-line", (value) => JSON.stringify(value)],
  ["indented", (value) => `${JSON.stringify(value, null, 2)}\n`],
  ["tab-indented CRLF", (value) => `${JSON.stringify(value, null, "\t").replaceAll("\n", "\r\n")}\r\n`],
  ["4-space, compact arrays inside", (value) => `${JSON.stringify(value, null, 4).replace(/\[\s+\{/g, "[{").replace(/\}\s+\]/g, "}]")}\n`],
];

/** Operations in the order a user might do them; the label names the configuration they leave. */
const SEQUENCE: [string, string[]][] = [
  ["dev", ["--agent=dev"]],
  ["qa", ["--agent=qa"]],
  ["qa no-guard", ["--no-guard"]],
  ["qa guard-auto", []],
  ["qa guards", ["--with=pre-commit-guard,verify-claims"]],
  ["dev guards", ["--agent=dev"]],
  ["dev all", ["--with=all"]],
  ["dev none", ["--with=none"]],
  ["dev", ["--agent=dev"]],
  ["custom-agent-2 all", ["--agent=custom-agent-2", "--with=all", "--no-guard"]],
  ["dev", ["--agent=dev", "--with=none"]],
  ["qa", ["--agent=qa"]],
];

function commandsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(commandsIn);
  if (value && typeof value === "object") {
    const record = value as Record<string, unknown>;
    return [...(typeof record.command === "string" ? [record.command] : []), ...Object.values(record).flatMap(commandsIn)];
  }
  return [];
}

function tempsNextTo(path: string): string[] {
  return readdirSync(dirname(path)).filter((name) => name.startsWith(`.${basename(path)}`));
}

describe("a reinstall never grows a config", () => {
  for (const target of TARGETS) {
    for (const [style, format] of STYLES) {
      test(`${target.name}, ${style}: sizes stable per configuration, user hooks intact, uninstall restores the bytes`, () => {
        const world = hostileWorld();
        const path = target.path(world);
        mkdirSync(dirname(path), { recursive: true });
        const original = format(target.user);
        writeFileSync(path, original);
        const seen = new Map<string, string>();
        for (const [label, args] of SEQUENCE) {
          const result = run(world, ["hooks:install", ".", `--tool=${target.tool}`, ...args]);
          expect(result.code).toBe(0);
          const text = readFileSync(path, "utf8");
          expect(text.length).toBeLessThan(original.length + 12_000);
          const parsed = JSON.parse(text.replace(/^\uFEFF/, ""));
          for (const command of target.commands) expect(commandsIn(parsed)).toContain(command);
          // The same configuration always comes back at the same size, however it was reached (an event dropped
          // and added again moves to the end, so the order of keys may differ).
          if (seen.has(label)) expect(text.length).toBe(seen.get(label)!.length);
          else seen.set(label, text);
        }
        expect(run(world, ["hooks:uninstall", ".", `--tool=${target.tool}`]).code).toBe(0);
        expect(readFileSync(path, "utf8")).toBe(original);
        expect(tempsNextTo(path)).toEqual([]);
      });
    }
  }

  test("the issue's case: a 2 KB one-line settings.json with a user hook, 10 reinstalls alternating agent and --no-guard", () => {
    const world = hostileWorld();
    const path = userFiles(world).claude;
    const padding = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`setting${i}`, `value-${"x".repeat(20)}`]));
    writeFileSync(path, JSON.stringify({ ...padding, hooks: USER_CLAUDE.hooks }));
    const sizes: number[] = [];
    for (let i = 0; i < 10; i++) {
      expect(run(world, ["hooks:install", "--tool=claude", `--agent=${i % 2 ? "qa" : "dev"}`, ...(i % 3 === 2 ? ["--no-guard"] : [])]).code).toBe(0);
      sizes.push(statSync(path).size);
    }
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThan(1_500);
  });
});

describe("temp files", () => {
  function deadPid(): number {
    const child = Bun.spawnSync(["sh", "-c", "echo $$"], { stdout: "pipe" });
    return Number(child.stdout.toString().trim());
  }

  test("stale temp files of aioson's own naming are removed on the next run; nothing else is", () => {
    const world = hostileWorld();
    const path = userFiles(world).claude;
    writeFileSync(path, "{}\n");
    const dir = dirname(path);
    const dead = deadPid();
    const stale = [`.settings.json.aioson-${dead}-deadbeef.tmp`, `.settings.json.aioson-tmp-${dead}-lx0abc12`];
    const old = `.settings.json.aioson-${process.pid}-0badf00d.tmp`;
    const kept = [
      `.settings.json.aioson-${process.pid}-cafebabe.tmp`, // a live writer's, fresh
      ".settings.json.aioson-backup",
      `.settings.json.aioson-${dead}-nothex!!.tmp`,
      `settings.json.aioson-${dead}-deadbeef.tmp`,
      `.other.json.aioson-${dead}-deadbeef.tmp`,
      "notes.txt",
    ];
    for (const name of [...stale, old, ...kept]) writeFileSync(join(dir, name), "partial");
    // A live pid's temp file older than any real write is stale too.
    utimesSync(join(dir, old), new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    mkdirSync(join(dir, `.settings.json.aioson-${dead}-00000000.tmp`));
    expect(run(world, ["hooks:install", "--tool=claude"]).code).toBe(0);
    const left = readdirSync(dir).sort();
    expect(left).toEqual([...kept, `.settings.json.aioson-${dead}-00000000.tmp`, "settings.json"].sort());
  });

  test("installs killed at any moment: the next run leaves a valid file and no temp file", async () => {
    const world = hostileWorld();
    const path = userFiles(world).claude;
    // Big enough (about 6 MiB, under the 8 MiB bound) that a write takes a while.
    const big = { blob: Array.from({ length: 6_000 }, (_, i) => `${i}-${"y".repeat(1_000)}`), hooks: USER_CLAUDE.hooks };
    const original = JSON.stringify(big);
    writeFileSync(path, original);
    for (let round = 0; round < 12; round++) {
      const child = Bun.spawn([BINARY, "hooks:install", "--tool=claude", `--agent=${round % 2 ? "qa" : "dev"}`], { env: testEnv(world.home), stdout: "ignore", stderr: "ignore" });
      Bun.sleepSync(5 + round * 7);
      child.kill("SIGKILL");
      // Reaped, as a harness reaps its hooks (a zombie still answers kill(pid, 0)).
      await child.exited;
      const text = readFileSync(path, "utf8");
      expect(() => JSON.parse(text)).not.toThrow();
    }
    expect(run(world, ["hooks:install", "--tool=claude"], { timeoutMs: 30_000 }).code).toBe(0);
    expect(tempsNextTo(path)).toEqual([]);
    expect(run(world, ["hooks:uninstall", "--tool=claude"], { timeoutMs: 30_000 }).code).toBe(0);
    expect(readFileSync(path, "utf8")).toBe(original);
    expect(existsSync(path)).toBe(true);
  });
});
