/**
 * The output of the commands people read (src/human/output.ts, src/human/progress.ts), through the real binary: plain
 * text byte for byte when piped or with NO_COLOR, CI or TERM=dumb; on a terminal (a pseudo-terminal from `script`) the
 * same words with colour, and a progress line on stderr that is erased before the report; `--json` never coloured.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { BINARY, cleanupTemp, onTerminal, runAioson, tempDir, tempProject } from "./helpers.ts";

afterAll(cleanupTemp);

const SGR = /\x1b\[[0-9;]*m/g;
const plain = (text: string) => text.replace(SGR, "");

function world(): { home: string; project: string } {
  const home = tempDir("aioson-home-");
  mkdirSync(join(home, ".claude"));
  return { home, project: tempProject() };
}

describe("human output", () => {
  test("piped, NO_COLOR, CI or TERM=dumb: the plain text, byte for byte the same, no escape sequence", () => {
    const { home, project } = world();
    const args = ["hooks:install", project, "--tool=claude", "--dry-run"];
    const piped = runAioson(args, { home });
    expect(piped.stdout).toStartWith("Hooks Install — agent: @dev [dry-run]\n" + "─".repeat(50) + "\n  [dry-run] Would write: ");
    expect(piped.stdout).not.toContain("\x1b");
    const envs: Record<string, string>[] = [{ NO_COLOR: "1" }, { CI: "true" }, { TERM: "dumb" }, { NO_COLOR: "1", FORCE_COLOR: "1" }];
    for (const env of envs) {
      expect({ env, stdout: runAioson(args, { home, env }).stdout }).toEqual({ env, stdout: piped.stdout });
      expect({ env, stdout: onTerminal(args, home, env) }).toEqual({ env, stdout: piped.stdout });
    }
  });

  test("on a terminal the same words, coloured: the marks, the title, the rule, the commands to run", () => {
    const { home, project } = world();
    const piped = runAioson(["hooks:install", project, "--tool=claude"], { home: tempDir("aioson-home-") }).stdout;
    const shown = onTerminal(["hooks:install", project, "--tool=claude"], home);
    expect(plain(shown).replaceAll(home, "~")).toBe(piped.replace(/\/tmp\/aioson-home-[^/]+/g, "~"));
    expect(shown).toContain("\x1b[1mHooks Install — agent: @dev\x1b[22m\n");
    expect(shown).toContain(`\x1b[2m${"─".repeat(50)}\x1b[22m`);
    expect(shown).toContain("  \x1b[32m✓\x1b[39m Claude Code — ");
    expect(shown).toContain("  \x1b[36m•\x1b[39m Every file write/edit → logged as artifact event");
    expect(shown).toContain("To verify that the hooks fire: \x1b[36maioson hooks:doctor\x1b[39m\n");
    expect(shown).toContain("To see the agent's session once it has run: \x1b[36maioson live:status . --agent=dev\x1b[39m\n");
    // FORCE_COLOR asks for the same through a pipe.
    expect(runAioson(["hooks:install", project, "--tool=claude"], { home, env: { FORCE_COLOR: "1" } }).stdout).toContain("  \x1b[32m✓\x1b[39m Claude Code — ");
  });

  test("an error on a terminal: its icon and a red Error:, the same message and hint", () => {
    const { home } = world();
    const shown = onTerminal(["hooks-instal"], home);
    expect(shown).toBe("\x1b[31m✗\x1b[39m \x1b[1m\x1b[31mError:\x1b[39m\x1b[22m Unknown command: hooks-instal. Did you mean `\x1b[36mhooks:install\x1b[39m`?\nRun `\x1b[36maioson --help\x1b[39m` for every command.\n");
    expect(onTerminal(["hooks-instal"], home, { CI: "1" })).toBe(runAioson(["hooks-instal"], { home }).stderr);
  });

  test("--json is never coloured, not even on a terminal", () => {
    const { home, project } = world();
    const shown = onTerminal(["hooks:install", project, "--tool=claude", "--dry-run", "--json"], home);
    expect(shown).not.toContain("\x1b");
    expect(JSON.parse(shown).ok).toBe(true);
  });

  test("hooks:doctor shows which handler it runs on a terminal, erased before the report; nothing when piped", () => {
    const { home } = world();
    const bin = join(home, "bin");
    mkdirSync(bin);
    symlinkSync(BINARY, join(bin, "aioson"));
    expect(runAioson(["hooks:install", "--tool=claude"], { home }).code).toBe(0);
    const env = { PATH: `${bin}:/usr/bin:/bin` };
    const shown = onTerminal(["hooks:doctor", "--tool=claude"], home, env);
    expect(shown).toMatch(/\r\x1b\[2K\x1b\[36m[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]\x1b\[39m Running the installed handlers \[1\] claude PreToolUse/);
    expect(shown).toMatch(/\[\d+\] claude SessionEnd/);
    // The report starts on a clean line, after the progress line was erased.
    expect(shown).toContain("\r\x1b[2K\x1b[1mHooks Doctor\x1b[22m\n");
    const piped = runAioson(["hooks:doctor", "--tool=claude"], { home, env });
    expect(piped.stdout + piped.stderr).not.toContain("Running the installed handlers");
    expect(piped.stdout).toStartWith("Hooks Doctor\n");
    expect(onTerminal(["hooks:doctor", "--tool=claude"], home, { ...env, CI: "true" })).not.toContain("Running the installed handlers");
  });
});
