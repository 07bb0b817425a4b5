/**
 * The projects registry: which projects on this machine have a store, so that `aioson dashboard` can list them.
 *
 *   <userConfigDir>/projects.json   {"version":1,"projects":[{"root":"/abs/project","registered_at":"<iso>"}]}
 *
 * Written only when a store is created or migrated (openStore's migration branch), never on a hook's hot path after
 * that. Concurrent creators serialise through a lock file beside it (created exclusively, taken over when stale) and
 * merge what is there; the file itself is replaced atomically, so a reader never sees half of it. Bounded: at most
 * MAX_PROJECTS entries (the most recently registered), and entries whose store is gone are dropped on every write and
 * by the dashboard when it reads. The roots came from wherever an agent worked: they are validated when read back and
 * are only ever used as paths to look at and as text to show.
 */
import { closeSync, lstatSync, mkdirSync, openSync, rmSync, statSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import * as v from "valibot";
import { writeFileAtomic } from "../core/atomic-write.ts";
import { readRegularFile } from "../core/regular-file.ts";
import { userConfigDir } from "../core/user-config.ts";
import { dbPath } from "./paths.ts";

type Env = Readonly<Record<string, string | undefined>>;

export const MAX_PROJECTS = 256;
/** 256 entries of long paths stay far below this; anything larger is not ours and is not read. */
const REGISTRY_MAX_BYTES = 512 * 1024;
const MAX_ROOT_LENGTH = 4096;
/** A lock older than this was left by a killed process: the next writer takes it over. */
const STALE_LOCK_MS = 10_000;
/** Registering is best effort: a creator never waits longer than this for the lock. */
const LOCK_WAIT_MS = 2_000;

const EntrySchema = v.object({
  root: v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_ROOT_LENGTH), v.check((root) => isAbsolute(root) && !root.includes("\0"), "an absolute path")),
  registered_at: v.pipe(v.string(), v.isoTimestamp()),
});
export type RegistryEntry = v.InferOutput<typeof EntrySchema>;

const FileSchema = v.object({ version: v.literal(1), projects: v.array(v.unknown()) });

export function registryPath(env: Env = process.env): string {
  return join(userConfigDir(env), "projects.json");
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The valid entries of the file (an invalid entry is skipped, an invalid file reads as empty), newest first. */
export function readRegistry(env: Env = process.env): RegistryEntry[] {
  const read = readRegularFile(registryPath(env), REGISTRY_MAX_BYTES);
  if (read.kind !== "ok") return [];
  const file = v.safeParse(FileSchema, parse(read.text));
  if (!file.success) return [];
  const entries = new Map<string, RegistryEntry>();
  for (const item of file.output.projects) {
    const entry = v.safeParse(EntrySchema, item);
    if (!entry.success) continue;
    const known = entries.get(entry.output.root);
    if (!known || known.registered_at < entry.output.registered_at) entries.set(entry.output.root, entry.output);
  }
  return [...entries.values()].sort((a, b) => b.registered_at.localeCompare(a.registered_at));
}

/** Whether `root` still has a store: a regular file (a symlink, FIFO or folder there is not a store). */
export function hasStore(root: string): boolean {
  try {
    return lstatSync(dbPath(root)).isFile();
  } catch {
    return false;
  }
}

function acquireLock(lock: string, deadline: number): boolean {
  for (;;) {
    try {
      closeSync(openSync(lock, "wx"));
      return true;
    } catch (error) {
      if ((error as { code?: unknown }).code !== "EEXIST") return false;
    }
    try {
      if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { force: true });
    } catch {
      // Released meanwhile: try again.
    }
    if (Date.now() >= deadline) return false;
    Bun.sleepSync(5 + Math.floor(Math.random() * 15));
  }
}

/** Read, change and rewrite the registry under its lock; false when the lock could not be had or the write failed. */
function updateRegistry(change: (entries: RegistryEntry[]) => RegistryEntry[], env: Env): boolean {
  const path = registryPath(env);
  const lock = `${path}.lock`;
  try {
    mkdirSync(userConfigDir(env), { recursive: true });
  } catch {
    return false;
  }
  if (!acquireLock(lock, Date.now() + LOCK_WAIT_MS)) return false;
  try {
    const projects = change(readRegistry(env)).slice(0, MAX_PROJECTS);
    writeFileAtomic(path, `${JSON.stringify({ version: 1, projects }, null, 2)}\n`);
    return true;
  } catch {
    return false;
  } finally {
    rmSync(lock, { force: true });
  }
}

/** Adds (or refreshes) `root`; drops entries whose store is gone. Never throws: a hook must not fail over it. */
export function registerProject(root: string, env: Env = process.env, now: Date = new Date()): boolean {
  if (!v.is(EntrySchema, { root, registered_at: now.toISOString() })) return false;
  return updateRegistry(
    (entries) => [{ root, registered_at: now.toISOString() }, ...entries.filter((entry) => entry.root !== root && hasStore(entry.root))],
    env,
  );
}

/** The registered projects that still have a store; the registry is rewritten when some were dropped. */
export function listRegisteredProjects(env: Env = process.env): RegistryEntry[] {
  const entries = readRegistry(env);
  const alive = entries.filter((entry) => hasStore(entry.root));
  if (alive.length < entries.length) updateRegistry((current) => current.filter((entry) => hasStore(entry.root)), env);
  return alive;
}
