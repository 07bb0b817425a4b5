/**
 * Issue 25, round 2: every program aioson starts is looked up on PATH outside the projects it runs for — the folder
 * it was given, the current folder, and every folder above them that holds a repository or an AIOSON project (npm
 * puts `node_modules/.bin` of each of them on PATH when it runs a script) — and gets that PATH itself. Each attack
 * puts a program the repository ships first on PATH and a user's program of the same name after it: the user's one
 * runs, the repository's never does.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTemp, runAioson, tempDir, tempProject } from "../helpers.ts";
import { startDashboard, type RunningDashboard } from "../dashboard/helpers.ts";
import { runGuard } from "../kit/helpers.ts";

const running: RunningDashboard[] = [];
afterAll(async () => {
  for (const dashboard of running) await dashboard.stop();
  cleanupTemp();
});

/** A program that writes its first argument and its PATH to `marker`, then exits 0. */
function program(dir: string, name: string, marker: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), `#!/bin/sh\nprintf '%s\\n%s\\n' "$1" "$PATH" > '${marker}'\n`);
  chmodSync(join(dir, name), 0o755);
}

async function waitFor(path: string): Promise<boolean> {
  for (let i = 0; i < 150 && !existsSync(path); i++) await Bun.sleep(20);
  return existsSync(path);
}

/** A repository with an AIOSON project in a package folder below its root, as a monorepo lays them out. */
function monorepo(): { repo: string; app: string } {
  const repo = tempDir("aioson-monorepo-");
  mkdirSync(join(repo, ".git"));
  const app = join(repo, "packages", "app");
  mkdirSync(join(app, ".aioson"), { recursive: true });
  writeFileSync(join(app, ".aioson", "config.md"), "# app\n");
  return { repo, app };
}

describe("the dashboard's browser opener", () => {
  test("never the project's xdg-open, which would get the token URL: the dir argument's and the current folder's are left out", async () => {
    const home = tempDir("aioson-home-");
    const user = tempDir("aioson-user-bin-");
    const opened = join(user, "opened.txt");
    program(user, "xdg-open", opened);
    const project = tempProject();
    const shipped = join(project, "shipped.txt");
    program(join(project, "node_modules", ".bin"), "xdg-open", shipped);
    const { repo, app } = monorepo();
    const fromRepo = join(repo, "shipped.txt");
    program(join(repo, "node_modules", ".bin"), "xdg-open", fromRepo);
    const own = (dir: string) => `${join(dir, "node_modules", ".bin")}:${user}:${process.env.PATH}`;

    // The project named on the command line; then no dir, started from a package folder of a repository.
    for (const [args, cwd, path] of [[[project, "--port=0"], home, own(project)], [["--port=0"], app, own(repo)]] as const) {
      const dashboard = await startDashboard(args, { home, cwd, env: { PATH: path, DISPLAY: ":0" } });
      running.push(dashboard);
      expect(await waitFor(opened)).toBe(true);
      const [url, seen] = readFileSync(opened, "utf8").split("\n");
      expect(url).toBe(dashboard.url);
      // The opener's own lookups (xdg-open runs its helpers by name) get the PATH without the project's folders.
      expect(seen).toBe(`${user}:${process.env.PATH}`);
      await dashboard.stop();
      rmSync(opened);
    }
    expect(existsSync(shipped)).toBe(false);
    expect(existsSync(fromRepo)).toBe(false);
  });
});

describe("live:start --launch", () => {
  test("the harness is never the current folder's project's own", () => {
    const home = tempDir("aioson-home-");
    const user = tempDir("aioson-user-bin-");
    const launched = join(user, "launched.txt");
    program(user, "claude", launched);
    const target = tempProject();
    const { repo, app } = monorepo();
    const shipped = join(repo, "shipped.txt");
    program(join(repo, "node_modules", ".bin"), "claude", shipped);
    const run = runAioson(["live:start", target, "--tool=claude"], { home, cwd: app, env: { PATH: `${join(repo, "node_modules", ".bin")}:${user}:${process.env.PATH}` } });
    expect(run.code).toBe(0);
    expect(existsSync(shipped)).toBe(false);
    expect(existsSync(launched)).toBe(true);
  });
});

describe("git, for the guards", () => {
  /** A stand-in git a repository ships: it records that it ran and answers like git would not. */
  function shippedGit(dir: string, marker: string): void {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "git"), `#!/bin/sh\ntouch '${marker}'\necho "## evil"\n`);
    chmodSync(join(dir, "git"), 0o755);
  }

  test("session-context in a package folder never runs the git of the repository root's node_modules/.bin", () => {
    const { repo, app } = monorepo();
    Bun.spawnSync(["git", "init", "-q", repo]);
    const shipped = join(repo, "shipped.txt");
    shippedGit(join(repo, "node_modules", ".bin"), shipped);
    const run = runGuard("session-context", { hook_event_name: "SessionStart", source: "startup" }, { dir: app, env: { PATH: `${join(repo, "node_modules", ".bin")}:${process.env.PATH}` } });
    expect(run.code).toBe(0);
    expect(existsSync(shipped)).toBe(false);
    expect(run.stdout).toContain("Project: ");
  });

  test("pre-commit-guard's alias lookup for `git -C <elsewhere>` never runs the hook's project's git", () => {
    const project = tempProject();
    const elsewhere = tempDir("aioson-elsewhere-");
    Bun.spawnSync(["git", "init", "-q", elsewhere]);
    Bun.spawnSync(["git", "-C", elsewhere, "config", "alias.publish", "push"]);
    const shipped = join(project, "shipped.txt");
    shippedGit(join(project, "node_modules", ".bin"), shipped);
    const payload = { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: `git -C ${elsewhere} publish` } };
    const run = runGuard("pre-commit-guard", payload, { dir: project, env: { PATH: `${join(project, "node_modules", ".bin")}:${process.env.PATH}` } });
    expect(existsSync(shipped)).toBe(false);
    expect(run.stdout).toContain('"permissionDecision":"ask"');
  });
});
