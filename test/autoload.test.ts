/**
 * Security: a compiled Bun binary would by default load `.env` and `bunfig.toml` from the directory it runs in, so
 * any repository an agent works in could set the hook's environment or preload code into it. scripts/build.ts
 * turns both off; these tests prove it through the real binary.
 *
 * The `.env` effect is observed through colour: with FORCE_COLOR=1, `<command> --help` is coloured even through a
 * pipe, unless the environment says NO_COLOR=1 (which wins). A binary that loaded the project's `.env` prints the
 * help uncoloured.
 * (Checked against a binary built with --compile-autoload-dotenv / --compile-autoload-bunfig: both tests fail.)
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { cleanupTemp, runAioson, tempProject } from "./helpers.ts";

afterAll(cleanupTemp);

const ESC = "\u001b[";

/** An environment in which help output is coloured through a pipe: FORCE_COLOR, and nothing that switches colour off. */
const COLOUR_ENV = { NO_COLOR: undefined, FORCE_COLOR: "1", CI: undefined, TEST: undefined, TERM: "xterm-256color" };

describe("autoload of .env and bunfig.toml is off in the compiled binary", () => {
  test("a project's .env does not reach the binary's environment", () => {
    const lines = "NO_COLOR=1\nTERM=dumb\nTEST=1\nCI=1\n";
    const project = tempProject({ ".env": lines, ".env.local": lines });
    const clean = tempProject();

    const baseline = runAioson(["runtime:init", "--help"], { cwd: clean, env: COLOUR_ENV });
    expect(baseline.code).toBe(0);
    // The probe is only meaningful if, without the .env, the help is coloured.
    expect(baseline.stdout).toContain(ESC);

    const inProject = runAioson(["runtime:init", "--help"], { cwd: project, env: COLOUR_ENV });
    expect(inProject.code).toBe(0);
    expect(inProject.stdout).toBe(baseline.stdout);
  });

  test("a project's bunfig.toml preload is never run", () => {
    const project = tempProject({
      "bunfig.toml": 'preload = ["./evil.ts"]\n\n[run]\npreload = ["./evil.ts"]\n',
      "evil.ts": 'require("node:fs").writeFileSync(require("node:path").join(import.meta.dir, "PRELOADED"), "evil code ran");\n',
    });
    for (const args of [["--version"], ["runtime:init", "--help"], ["hooks:emit", "--tool=claude"]]) {
      runAioson(args, { cwd: project, stdin: "{}" });
      expect(existsSync(join(project, "PRELOADED"))).toBe(false);
    }
  });
});
