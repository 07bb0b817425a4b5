/**
 * Installs a pinned harness from the npm registry into a cache folder outside the repository:
 * `${AIOSON_REAL_CACHE:-~/.cache/aioson-real}/<package with / as +>@<version>/`.
 *
 * - `npm install --ignore-scripts`: the platform binary comes as an optional dependency, no postinstall runs.
 * - Idempotent: a folder holding `.complete` whose executable answers `--version` with the pinned version is used
 *   as it is (a warm cache costs one `--version` call).
 * - Safe when two runs start at once: each installs into its own temporary folder and publishes it with one
 *   `rename`; the loser deletes its copy and uses the winner's.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { pin, platformKey, type Pin } from "./pins.ts";

export type InstalledHarness = {
  harness: string;
  version: string;
  dir: string;
  /** argv prefix that starts the harness: `[exe]` or `[runner, script]`. */
  command: string[];
};

const NPM_TIMEOUT_MS = 15 * 60_000;
const VERSION_TIMEOUT_MS = 120_000;

export function cacheRoot(): string {
  const configured = process.env.AIOSON_REAL_CACHE?.trim();
  return configured ? configured : join(homedir(), ".cache", "aioson-real");
}

/** An exact npm package (a pin is one). */
type Package = { package: string; version: string };

function folderName(p: Package): string {
  return `${p.package.replace("/", "+")}@${p.version}`;
}

function commandIn(dir: string, harness: string, p: Pin): string[] {
  const relative = p.executables[platformKey()];
  if (!relative) throw new Error(`${harness} ${p.version} has no executable pinned for ${platformKey()} (test/real/harnesses.json)`);
  const exe = join(dir, ...relative.split("/"));
  return p.runner ? [p.runner, exe] : [exe];
}

/** Runs `--version` in a scratch HOME (some harnesses unpack or write on first start). Null when it answers right. */
function versionProblem(command: string[], version: string): string | null {
  const exe = command.at(-1) as string;
  if (!existsSync(exe)) return `executable missing: ${exe}`;
  const home = mkdtempSync(join(tmpdir(), "aioson-real-version-"));
  try {
    const [file, ...args] = command as [string, ...string[]];
    const run = spawnSync(file, [...args, "--version"], {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, XDG_CONFIG_HOME: join(home, ".config"), COPILOT_PKG_CACHE_HOME: join(home, "copilot-pkg"), COPILOT_OFFLINE: "true", DISABLE_AUTOUPDATER: "1" },
      encoding: "utf8",
      timeout: VERSION_TIMEOUT_MS,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const output = `${run.stdout ?? ""}${run.stderr ?? ""}`;
    if (run.error) return `${exe} --version failed: ${run.error.message}`;
    if (!output.includes(version)) return `${exe} --version answered ${JSON.stringify(output.trim().slice(0, 200))}, expected ${version}`;
    return null;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

function npmInstall(dir: string, p: Package): void {
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "aioson-real-harness", private: true }, null, 2)}\n`);
  const run = spawnSync("npm", ["install", "--ignore-scripts", "--no-audit", "--no-fund", "--no-save", "--loglevel=error", `${p.package}@${p.version}`], {
    cwd: dir,
    env: { ...process.env, npm_config_update_notifier: "false" },
    encoding: "utf8",
    timeout: NPM_TIMEOUT_MS,
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (run.error || run.status !== 0) {
    throw new Error(`npm install ${p.package}@${p.version} failed (${run.error?.message ?? `exit ${run.status}`}): ${(run.stderr ?? "").trim().slice(-2_000)}`);
  }
}

/**
 * The cache folder of one exact npm package, installed first when missing or when `problem` finds the cached copy
 * unusable (`problem(dir)` is null for a good copy).
 */
function ensureCached(p: Package, problem: (dir: string) => string | null, log: (line: string) => void): string {
  const root = cacheRoot();
  const dir = join(root, folderName(p));
  if (existsSync(join(dir, ".complete"))) {
    const found = problem(dir);
    if (!found) return dir;
    log(`${p.package}: cached copy unusable (${found}); reinstalling`);
    // Moved aside first (one rename), so a concurrent run never sees half a folder at the pinned path.
    const aside = join(root, `.broken-${folderName(p)}-${process.pid}-${Date.now()}`);
    renameSync(dir, aside);
    rmSync(aside, { recursive: true, force: true });
  }
  mkdirSync(root, { recursive: true });
  const staging = mkdtempSync(join(root, `.tmp-${folderName(p)}-`));
  try {
    log(`npm install ${p.package}@${p.version} → ${dir}`);
    npmInstall(staging, p);
    const found = problem(staging);
    if (found) throw new Error(`${p.package} ${p.version}: ${found}`);
    writeFileSync(join(staging, ".complete"), `${new Date().toISOString()}\n`);
    try {
      renameSync(staging, dir);
    } catch (error) {
      // Another run published the same pin first: use its copy.
      if (!existsSync(join(dir, ".complete"))) throw error;
      rmSync(staging, { recursive: true, force: true });
    }
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  return dir;
}

/** The installed harness, installing it first when the cache does not hold a working copy. */
export function ensureInstalled(harness: string, log: (line: string) => void = () => {}): InstalledHarness {
  const p = pin(harness);
  const dir = ensureCached(p, (at) => versionProblem(commandIn(at, harness, p), p.version), log);
  return { harness, version: p.version, dir, command: commandIn(dir, harness, p) };
}

/**
 * A library a harness needs next to its config (OpenCode installs `@opencode-ai/plugin` into its plugin folders at
 * startup): the cache folder whose `node_modules` holds exactly that version.
 */
export function ensurePackage(p: Package, log: (line: string) => void = () => {}): string {
  return ensureCached(
    p,
    (dir) => {
      const manifest = join(dir, "node_modules", ...p.package.split("/"), "package.json");
      if (!existsSync(manifest)) return `${manifest} missing`;
      const version: unknown = (JSON.parse(readFileSync(manifest, "utf8")) as { version?: unknown }).version;
      return version === p.version ? null : `${manifest} holds ${String(version)}`;
    },
    log,
  );
}
