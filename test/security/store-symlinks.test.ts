/**
 * Issue 11 item 2, the store: `.aioson`, `.aioson/runtime`, `aios.sqlite` and its `-wal`/`-shm`/`-journal` as
 * symlinks, hard links or FIFOs. No command writes through them or reads another store through them; hooks exit 0
 * and log the refusal when the log itself is safe; people-facing commands fail with a clear error.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, linkSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTemp, runAioson } from "../helpers.ts";
import { hookLogOf, type Hostile, hostileProject, NAMING_RULE, namingWrite, outsideState, runBounded, runtimeOf, WRITE_PAYLOAD } from "./paths-helpers.ts";
import { openDbFile } from "../../scripts/open-db.ts";

afterAll(cleanupTemp);

const payload = JSON.stringify(WRITE_PAYLOAD);

/** Another project's store, full of rows the hostile project wants read into a checkpoint. */
function foreignStore(h: Hostile): string {
  const path = join(h.outside, "aios.sqlite");
  const db = openDbFile(path, { create: true });
  db.exec("CREATE TABLE secret (v TEXT); INSERT INTO secret VALUES ('foreign data')");
  db.close();
  return path;
}

type Attack = { name: string; arrange: (h: Hostile) => void };

const ATTACKS: Attack[] = [
  { name: ".aioson/runtime is a symlink to a folder outside", arrange: (h) => symlinkSync(h.outside, runtimeOf(h.project)) },
  {
    name: "aios.sqlite is a symlink to another store",
    arrange: (h) => {
      mkdirSync(runtimeOf(h.project), { recursive: true });
      symlinkSync(foreignStore(h), join(runtimeOf(h.project), "aios.sqlite"));
    },
  },
  {
    name: "aios.sqlite is a dangling symlink (SQLite would create its target)",
    arrange: (h) => {
      mkdirSync(runtimeOf(h.project), { recursive: true });
      symlinkSync(join(h.outside, "created.sqlite"), join(runtimeOf(h.project), "aios.sqlite"));
    },
  },
  ...(["-wal", "-shm", "-journal"] as const).map((suffix) => ({
    name: `aios.sqlite${suffix} is a symlink to a file outside`,
    arrange: (h: Hostile) => {
      mkdirSync(runtimeOf(h.project), { recursive: true });
      symlinkSync(join(h.outside, "bait.txt"), join(runtimeOf(h.project), `aios.sqlite${suffix}`));
    },
  })),
  {
    name: "aios.sqlite is a hard link to a file outside",
    arrange: (h) => {
      mkdirSync(runtimeOf(h.project), { recursive: true });
      linkSync(join(h.outside, "bait.txt"), join(runtimeOf(h.project), "aios.sqlite"));
    },
  },
];

describe("store paths that leave the project", () => {
  for (const attack of ATTACKS) {
    test(`${attack.name}: hooks:emit exits 0, writes nothing outside`, async () => {
      const h = hostileProject();
      attack.arrange(h);
      const before = outsideState(h);
      const run = await runBounded(["hooks:emit", h.project, "--json"], { h, stdin: payload });
      expect(run.timedOut).toBe(false);
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual({ ok: false });
      expect(outsideState(h)).toEqual(before);
      expect(existsSync(join(h.outside, "created.sqlite"))).toBe(false);
    });
  }

  test("a symlinked aios.sqlite: the refusal is in the hook log (the log itself is safe)", async () => {
    const h = hostileProject();
    ATTACKS[1]?.arrange(h);
    await runBounded(["hooks:emit", h.project], { h, stdin: payload });
    expect(hookLogOf(h)).toContain("aios.sqlite is a symlink");
  });

  test("a symlinked .aioson/runtime: nothing is logged anywhere (the log would leave the project too)", async () => {
    const h = hostileProject();
    ATTACKS[0]?.arrange(h);
    const before = outsideState(h);
    await runBounded(["hooks:emit", h.project], { h, stdin: payload });
    expect(outsideState(h)).toEqual(before);
    expect(existsSync(join(h.outside, "hooks.log"))).toBe(false);
  });

  test("a symlinked .aioson (to another project's data tree) is not written through", async () => {
    const h = hostileProject();
    const other = join(h.outside, "other-project", ".aioson");
    mkdirSync(join(other, "runtime"), { recursive: true });
    writeFileSync(join(other, "config.md"), "# another project\n");
    const project = join(h.base, "linked");
    mkdirSync(project);
    symlinkSync(other, join(project, ".aioson"));
    const before = outsideState(h);
    const run = await runBounded(["hooks:emit", project, "--json"], { h, stdin: payload, cwd: project });
    expect(run.code).toBe(0);
    expect(outsideState(h)).toEqual(before);
  });

  test("a FIFO as aios.sqlite never hangs a hook", async () => {
    const h = hostileProject();
    mkdirSync(runtimeOf(h.project), { recursive: true });
    Bun.spawnSync(["mkfifo", join(runtimeOf(h.project), "aios.sqlite")]);
    const emit = await runBounded(["hooks:emit", h.project, "--json"], { h, stdin: payload });
    expect(emit.timedOut).toBe(false);
    expect(emit.code).toBe(0);
    const recap = await runBounded(["hooks:recap", h.project, "--when=always"], { h, stdin: null });
    expect(recap.timedOut).toBe(false);
    expect(recap.code).toBe(0);
    expect(hookLogOf(h)).toContain("not a regular file");
  });
});

describe("reading through a symlinked store", () => {
  function linkedStore(): Hostile {
    const h = hostileProject();
    // A real aioson store elsewhere (the victim's project), with a recorded session.
    const victim = join(h.outside, "victim");
    mkdirSync(join(victim, ".aioson"), { recursive: true });
    writeFileSync(join(victim, ".aioson", "config.md"), "# victim\n");
    runAioson(["hooks:emit", victim], { stdin: JSON.stringify({ ...WRITE_PAYLOAD, tool_input: { file_path: "victim-secret-file.ts" } }), home: h.home });
    mkdirSync(runtimeOf(h.project), { recursive: true });
    symlinkSync(join(victim, ".aioson", "runtime", "aios.sqlite"), join(runtimeOf(h.project), "aios.sqlite"));
    return h;
  }

  test("hooks:recap injects nothing read through the link", async () => {
    const h = linkedStore();
    const before = outsideState(h);
    const run = await runBounded(["hooks:recap", h.project, "--when=always", "--json"], { h, stdin: JSON.stringify({ hook_event_name: "SessionStart", source: "compact", session_id: "S-1" }) });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain("victim-secret-file");
    expect(hookLogOf(h)).toContain("refused to open");
    expect(outsideState(h)).toEqual(before);
  });

  test("live:status and runtime:status refuse with a clear error", async () => {
    const h = linkedStore();
    for (const command of ["live:status", "runtime:status"]) {
      const run = await runBounded([command, h.project, "--json"], { h });
      expect(run.code).toBe(1);
      expect(run.stdout).not.toContain("victim-secret-file");
      expect(run.stdout).toContain("is a symlink");
    }
  });

  test("context:guard records no guard_injected row through the link", async () => {
    const h = linkedStore();
    mkdirSync(join(h.project, ".aioson", "rules"), { recursive: true });
    writeFileSync(join(h.project, ".aioson", "rules", "naming.md"), NAMING_RULE);
    const before = outsideState(h);
    const run = await runBounded(["context:guard", h.project, "--json"], { h, stdin: JSON.stringify(namingWrite(h.project)) });
    expect(run.code).toBe(0);
    // The rule is injected (the guard works), and its record does not go into the linked store.
    expect(run.stdout).toContain("Write identifiers in English");
    expect(outsideState(h)).toEqual(before);
  });
});

describe("people-facing commands", () => {
  test("runtime:init into a symlinked runtime folder fails clearly and creates nothing outside", async () => {
    const h = hostileProject();
    symlinkSync(h.outside, runtimeOf(h.project));
    const before = outsideState(h);
    const run = await runBounded(["runtime:init", h.project], { h });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Error: refused to open");
    expect(outsideState(h)).toEqual(before);
  });

  test("a folder above the root may be a symlink (the user's own path): the store opens through the real path", async () => {
    const h = hostileProject();
    const linked = join(h.base, "linked-home");
    symlinkSync(h.base, linked);
    const root = join(linked, "plain");
    for (const args of [["runtime:init", root], ["runtime:emit", root, "--agent=dev", "--summary=hi"], ["runtime:status", root, "--json"]]) {
      const run = await runBounded(args, { h, cwd: h.base });
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
    }
    expect(existsSync(join(h.base, "plain", ".aioson", "runtime", "aios.sqlite"))).toBe(true);
  });

  test("session:guard --once against a symlinked store writes nothing outside", async () => {
    const h = hostileProject();
    ATTACKS[1]?.arrange(h);
    const before = outsideState(h);
    const run = await runBounded(["session:guard", h.project, "--once", "--json"], { h });
    expect(run.timedOut).toBe(false);
    expect(run.code).toBe(1);
    expect(outsideState(h)).toEqual(before);
  });
});
