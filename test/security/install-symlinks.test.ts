/**
 * A cloned project whose harness config paths are symlinks into HOME or elsewhere: hooks:install, hooks:uninstall,
 * init and update refuse (exit 1, a clear line) and change nothing anywhere — not the link's target, not HOME, not
 * the project. User-level configs in HOME keep the documented behaviour (written through a dotfiles symlink).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTemp } from "../helpers.ts";
import { hostileWorld, run, snapshot, userFiles, type World } from "./install-helpers.ts";

afterAll(cleanupTemp);

/** What the hostile project points at: a user file that must keep its bytes. */
const VICTIM = '{"auths":{"registry.example":{"auth":"c2VjcmV0"}}}\n';

type Plant = { name: string; plant: (world: World) => void };

/** Each way a project can route one of its config paths out of itself (or through any symlink at all). */
const PLANTS: Plant[] = [
  { name: ".agents/hooks.json → a file in HOME", plant: (w) => {
    mkdirSync(join(w.project, ".agents"));
    writeFileSync(join(w.home, "victim.json"), VICTIM);
    symlinkSync(join(w.home, "victim.json"), join(w.project, ".agents", "hooks.json"));
  } },
  { name: ".agents/hooks.json → a missing file outside (would be created)", plant: (w) => {
    mkdirSync(join(w.project, ".agents"));
    symlinkSync(join(w.outside, "bash_aliases"), join(w.project, ".agents", "hooks.json"));
  } },
  { name: ".agents → a folder outside", plant: (w) => symlinkSync(w.outside, join(w.project, ".agents")) },
  { name: ".agents → a folder inside the project", plant: (w) => {
    mkdirSync(join(w.project, "elsewhere"));
    symlinkSync(join(w.project, "elsewhere"), join(w.project, ".agents"));
  } },
  { name: ".github → a folder outside", plant: (w) => {
    mkdirSync(join(w.outside, "hooks"));
    writeFileSync(join(w.outside, "hooks", "aioson.json"), VICTIM);
    symlinkSync(w.outside, join(w.project, ".github"));
  } },
  { name: ".github/hooks → a folder outside", plant: (w) => {
    mkdirSync(join(w.project, ".github"));
    writeFileSync(join(w.outside, "aioson.json"), VICTIM);
    symlinkSync(w.outside, join(w.project, ".github", "hooks"));
  } },
  { name: ".github/hooks/aioson.json → a file in HOME", plant: (w) => {
    mkdirSync(join(w.project, ".github", "hooks"), { recursive: true });
    writeFileSync(join(w.home, "victim.json"), VICTIM);
    symlinkSync(join(w.home, "victim.json"), join(w.project, ".github", "hooks", "aioson.json"));
  } },
];

const COMMANDS: string[][] = [
  ["hooks:install", ".", "--tool=antigravity"],
  ["hooks:install", ".", "--tool=copilot"],
  ["hooks:install", ".", "--tool=claude,antigravity,copilot"],
  ["hooks:install", ".", "--tool=all", "--dry-run"],
  ["hooks:uninstall", ".", "--tool=all"],
  ["hooks:uninstall", ".", "--tool=antigravity,copilot"],
  ["init", ".", "--tool=all"],
  ["update", ".", "--tool=all"],
];

/** Whether the command touches the planted path at all (a command that does not write there must just work). */
function touches(args: readonly string[], plant: string): boolean {
  const tools = args.find((a) => a.startsWith("--tool="))?.slice(7) ?? "all";
  const antigravity = tools === "all" || tools.includes("antigravity");
  const copilot = tools === "all" ? true : tools.includes("copilot");
  return plant.startsWith(".agents") ? antigravity : copilot;
}

describe("a project's symlinked harness config paths", () => {
  for (const { name, plant } of PLANTS) {
    for (const args of COMMANDS) {
      if (!touches(args, name)) continue;
      test(`${name}: ${args.join(" ")} refuses and changes nothing`, () => {
        const world = hostileWorld();
        // The user already has hooks installed: uninstall must not take them away either.
        writeFileSync(userFiles(world).claude, '{"model":"opus"}\n');
        plant(world);
        const before = snapshot(world.root);
        const result = run(world, args);
        expect(result.timedOut).toBe(false);
        expect(result.code).toBe(1);
        expect(result.stdout + result.stderr).toMatch(/[Rr]efused.*symlink/);
        expect(result.stdout + result.stderr).toMatch(/[Nn]othing was changed/);
        expect(snapshot(world.root)).toEqual(before);
      });
    }
  }

  test("the --json result names the refusal", () => {
    const world = hostileWorld();
    symlinkSync(world.outside, join(world.project, ".agents"));
    const result = run(world, ["hooks:install", ".", "--tool=antigravity", "--json"]);
    expect(result.code).toBe(1);
    expect(result.json).toMatchObject({ ok: false, reason: "unsafe_project_path", error: expect.stringContaining(".agents is a symlink") });
  });
});

describe("a project whose own data folder is a symlink", () => {
  const plants: Plant[] = [
    { name: ".aioson → a folder outside", plant: (w) => {
      writeFileSync(join(w.outside, "config.md"), "# looks like a project\n");
      symlinkSync(w.outside, join(w.project, ".aioson"));
    } },
    { name: ".aioson/runtime → a folder outside", plant: (w) => symlinkSync(w.outside, join(w.project, ".aioson", "runtime")) },
    { name: ".aioson/runtime/aios.sqlite → a file outside", plant: (w) => {
      mkdirSync(join(w.project, ".aioson", "runtime"));
      writeFileSync(join(w.outside, "store"), "");
      symlinkSync(join(w.outside, "store"), join(w.project, ".aioson", "runtime", "aios.sqlite"));
    } },
  ];
  for (const { name, plant } of plants) {
    for (const args of [["init", ".", "--no-hooks"], ["init", ".", "--tool=claude"], ["update", ".", "--tool=claude"]]) {
      test(`${name}: ${args.join(" ")} refuses and changes nothing`, () => {
        const world = hostileWorld();
        // Start from a project that is only a folder with the planted link (init's case) or a marked one (update's).
        if (name.startsWith(".aioson →")) rmAioson(world);
        plant(world);
        const before = snapshot(world.root);
        const result = run(world, args);
        expect(result.timedOut).toBe(false);
        expect(result.code).toBe(1);
        expect(result.stderr).toMatch(/^Error: refused to write .* is a symlink; nothing was changed/);
        expect(snapshot(world.root)).toEqual(before);
      });
    }
  }

  test("init's rules folder as a symlink: refused, the target gets no example rule", () => {
    const world = hostileWorld();
    rmAioson(world);
    mkdirSync(join(world.project, ".aioson"));
    symlinkSync(world.outside, join(world.project, ".aioson", "rules"));
    const before = snapshot(world.root);
    expect(run(world, ["init", ".", "--no-hooks"]).code).toBe(1);
    expect(snapshot(world.root)).toEqual(before);
  });
});

function rmAioson(world: World): void {
  Bun.spawnSync(["rm", "-rf", join(world.project, ".aioson")]);
}

describe("what stays allowed", () => {
  test("a plain project: install, then uninstall, leave no trace; HOME's dotfiles link is written through (spec 9.9)", () => {
    const world = hostileWorld();
    const dotfiles = join(world.home, "dotfiles");
    mkdirSync(dotfiles);
    writeFileSync(join(dotfiles, "settings.json"), '{"model":"opus"}\n');
    symlinkSync(join(dotfiles, "settings.json"), userFiles(world).claude);
    const projectBefore = snapshot(world.project);
    expect(run(world, ["hooks:install", ".", "--tool=claude,antigravity,copilot"]).code).toBe(0);
    expect(lstatSync(userFiles(world).claude).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dotfiles, "settings.json"), "utf8")).toContain("hooks:emit");
    expect(existsSync(join(world.project, ".agents", "hooks.json"))).toBe(true);
    expect(existsSync(join(world.project, ".github", "hooks", "aioson.json"))).toBe(true);
    expect(run(world, ["hooks:uninstall", ".", "--tool=claude,antigravity,copilot"]).code).toBe(0);
    expect(readFileSync(join(dotfiles, "settings.json"), "utf8")).toBe('{"model":"opus"}\n');
    expect(snapshot(world.project)).toEqual(projectBefore);
  });

  test("a symlink elsewhere in the project (not on a config's way) changes nothing for the installer", () => {
    const world = hostileWorld();
    symlinkSync(world.outside, join(world.project, "docs"));
    expect(run(world, ["hooks:install", ".", "--tool=antigravity"]).code).toBe(0);
    expect(snapshot(world.outside)).toEqual({});
  });
});
