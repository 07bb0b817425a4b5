/**
 * `aioson --help` and `aioson <command> --help` through the real binary: the plain text when piped or with NO_COLOR,
 * CI or TERM=dumb, the same words coloured on a terminal; lines that fit the width (COLUMNS, else the terminal's
 * columns, else 80); every option shown as it is typed, a switch without a value.
 */
import { afterAll, describe, expect, test } from "bun:test";
import type { ArgsDef, CommandDef } from "citty";
import { commandEntries } from "../scripts/hook-modules.ts";
import { kebab } from "../src/cli/args.ts";
import { BINARY, cleanupTemp, onTerminal, runAioson, tempDir, testEnv } from "./helpers.ts";

afterAll(cleanupTemp);

const SGR = /\x1b\[[0-9;]*m/g;
const plain = (text: string) => text.replace(SGR, "");
const longest = (text: string) => Math.max(...text.trimEnd().split("\n").map((line) => line.length));

async function declaredArgs(module: string): Promise<ArgsDef> {
  const command = (await import(`../${module}`)).default as CommandDef;
  return (typeof command.args === "function" ? await command.args() : await command.args) ?? {};
}

/** The binary on a pseudo-terminal whose size is set first (`stty cols`), without COLUMNS. */
function onSizedTerminal(columns: number, args: readonly string[], home: string): string {
  const line = [BINARY, ...args].map((arg) => `'${arg}'`).join(" ");
  const env = testEnv(home, { TERM: "xterm-256color", COLUMNS: undefined });
  const result = Bun.spawnSync(["script", "-qec", `stty cols ${columns} && ${line}`, "/dev/null"], { cwd: home, env, stdout: "pipe", stderr: "pipe", timeout: 30_000 });
  return result.stdout.toString().replaceAll("\r\n", "\n");
}

describe("--help", () => {
  test("every command: piped, plain text within 80 columns; each option as it is typed, a switch without a value", async () => {
    const entries = commandEntries();
    expect(entries.length).toBeGreaterThan(20);
    for (const { name, module } of entries) {
      const run = runAioson([name, "--help"]);
      expect({ name, code: run.code, stderr: run.stderr }).toEqual({ name, code: 0, stderr: "" });
      expect({ name, escape: run.stdout.includes("\x1b") }).toEqual({ name, escape: false });
      expect({ name, usage: run.stdout.includes(`\n\nUsage: aioson ${name} `) }).toEqual({ name, usage: true });
      expect({ name, width: longest(run.stdout) <= 80 }).toEqual({ name, width: true });
      for (const [key, arg] of Object.entries(await declaredArgs(module))) {
        if (arg.type === "positional") continue;
        const flag = kebab(key);
        const shown = new RegExp(`^  (?:-\\w, )?--(?:\\[no-\\])?${flag}(\\S*)`, "m").exec(run.stdout);
        expect({ name, flag, shown: shown !== null }).toEqual({ name, flag, shown: true });
        const tail = shown?.[1] ?? "";
        // A switch takes no value (`--watch[=<seconds>]` may be given one); any other option shows what it takes.
        if (arg.type === "boolean") expect({ name, flag, tail }).toEqual({ name, flag, tail: arg.valueHint ? `[=<${arg.valueHint}>]` : "" });
        else expect({ name, flag, value: tail.startsWith("=<") }).toEqual({ name, flag, value: true });
      }
    }
  });

  test("live:status: --watch is a switch that may be given seconds; a switch on by default is --[no-]<name>", () => {
    const live = runAioson(["live:status", "--help"]).stdout;
    expect(live).toContain("\n  --watch[=<seconds>]  Reprint every <seconds> (default 2) until Ctrl+C\n");
    expect(live).toContain("\n  -j, --json           Print one JSON document\n");
    expect(live).not.toContain("--watch=<watch>");
    expect(runAioson(["context:guard", "--help"]).stdout).toMatch(/\n {2}--\[no-\]jev {2,}Ask the judge/);
  });

  test("COLUMNS: every line fits, descriptions wrap under their column", () => {
    for (const columns of [120, 60, 40]) {
      const text = runAioson(["context:guard", "--help"], { env: { COLUMNS: String(columns) } }).stdout;
      expect({ columns, fits: longest(text) <= columns }).toEqual({ columns, fits: true });
    }
    const text = runAioson(["context:guard", "--help"], { env: { COLUMNS: "60" } }).stdout;
    const lines = text.split("\n");
    const tool = lines.findIndex((line) => line.startsWith("  --tool=<tool> "));
    const column = (lines[tool] as string).indexOf("Output adapter");
    // The description goes on under its own column, not under the option.
    expect(lines[tool + 1]).toMatch(new RegExp(`^ {${column}}\\S`));
    // Wide enough, it is one line.
    expect(runAioson(["context:guard", "--help"], { env: { COLUMNS: "200" } }).stdout).toMatch(/\n {2}--tool=<tool> +Output adapter: .+ \(default: claude\)\n/);
  });

  test("on a terminal: the same words coloured, as wide as the terminal; NO_COLOR, CI and TERM=dumb give the piped bytes", () => {
    const home = tempDir("aioson-home-");
    for (const args of [["live:status", "--help"], ["--help"]]) {
      const piped = runAioson(args, { home, env: { COLUMNS: "70" } }).stdout;
      const shown = onTerminal(args, home, { COLUMNS: "70" });
      expect(shown).toContain("\x1b[");
      expect(plain(shown)).toBe(piped);
      const switchedOff: Record<string, string>[] = [{ NO_COLOR: "1" }, { CI: "true" }, { TERM: "dumb" }];
      for (const env of switchedOff) expect({ args, env, shown: onTerminal(args, home, { COLUMNS: "70", ...env }) }).toEqual({ args, env, shown: piped });
      // FORCE_COLOR asks for the colour through a pipe.
      expect(runAioson(args, { home, env: { COLUMNS: "70", FORCE_COLOR: "1" } }).stdout).toBe(shown);
    }
    const page = onTerminal(["live:status", "--help"], home);
    expect(page).toContain("\x1b[1mOptions:\x1b[22m\n");
    expect(page).toContain("  \x1b[36m--watch[=<seconds>]\x1b[39m  Reprint");
    expect(page).toContain("Usage: \x1b[36maioson live:status [dir] [options]\x1b[39m");
    expect(onTerminal(["--help"], home)).toContain("\x1b[1mHooks:\x1b[22m\n  \x1b[36mhooks:install\x1b[39m  ");
    // Without COLUMNS the terminal's own width.
    const narrow = plain(onSizedTerminal(50, ["live:status", "--help"], home));
    expect(narrow).toContain("Options:");
    expect(longest(narrow)).toBeLessThanOrEqual(50);
    expect(longest(plain(onSizedTerminal(200, ["context:guard", "--help"], home)))).toBeGreaterThan(100);
  });

  test("aioson --help: the commands by area, in the layout and width of a command's page", () => {
    const root = runAioson(["--help"]).stdout;
    expect(root).toMatch(/^aioson \S+ \(\S+\)\n\nUsage: aioson <command> \[dir\] \[--flag\[=value\]\] \.\.\.\n\nHooks:\n {2}hooks:install {4}Wire aioson/);
    expect(root).toEndWith("\n\nRun `aioson <command> --help` for a command's options.\n");
    expect(longest(root)).toBeLessThanOrEqual(80);
    expect(longest(runAioson(["--help"], { env: { COLUMNS: "200" } }).stdout)).toBeGreaterThan(80);
  });
});
