/**
 * Writes into a project: the project is untrusted (docs/security.md), so a path that aioson builds under a
 * project root is written only when it stays inside that root and no file or folder on the way is a symlink (aioson
 * never makes symlinks, so any symlink there was put by someone else). Every write into a project goes through
 * this module: the store and its `-wal`/`-shm`, `live/` files, `hooks.log`, pointers, snapshots, workspace harness
 * configs. The user-level configs in HOME are not project paths and keep their own rules (spec 9.9).
 *
 * Cost: one `lstat` per path component below the root (a handful of microseconds per write).
 */
import { appendFileSync, constants, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync, type Stats } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, sep } from "node:path";

/** What was refused: the message names it ("refused to open …" for the store, which is read and written). */
export type FileAction = "write" | "read" | "open";

/** Thrown when a project path must not be written (or read); callers on a hook path log it and carry on. */
export class UnsafeProjectPathError extends Error {
  readonly code = "unsafe_project_path";
  constructor(
    readonly path: string,
    readonly why: string,
    action: FileAction = "write",
  ) {
    super(`refused to ${action} ${path}: ${why}`);
    this.name = "UnsafeProjectPathError";
  }
}

export function isUnsafeProjectPath(error: unknown): error is UnsafeProjectPathError {
  return error instanceof UnsafeProjectPathError;
}

/** O_NOFOLLOW where the platform has it (not on Windows, where the lstat walk is the whole check). */
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

function errno(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** The components of `target` below `root`, or null when `target` is not strictly inside `root`. */
function componentsBelow(root: string, target: string): string[] | null {
  const rel = relative(root, target);
  if (rel === "" || isAbsolute(rel) || rel === ".." || rel.startsWith(`..${sep}`)) return null;
  // relative() normalises: no empty or "." part is left to drop.
  return rel.split(sep);
}

/**
 * Folders this process has already found to be plain folders inside a root. A hook is one short process writing
 * several files into the same folders; what it checked a moment ago is not walked again (the project's content is
 * the threat, not a process racing this one: such a process could write the files itself).
 */
const plainFolders = new Set<string>();

/**
 * Checks that `target` (absolute) is inside `root` (a real path, as the project-root walk returns it) and that no
 * existing component from the first one below the root down to `target` itself is a symlink; a missing component
 * ends the walk (what does not exist yet will be created by aioson as a plain folder or file). Throws
 * UnsafeProjectPathError otherwise; returns the target's own lstat, null when it does not exist.
 */
export function assertProjectPath(root: string, target: string, action: FileAction = "write"): Stats | null {
  const parts = componentsBelow(root, target);
  if (!parts) throw new UnsafeProjectPathError(target, "outside the project root", action);
  let current = root;
  let stat: Stats | null = null;
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index] as string;
    if (part === "..") throw new UnsafeProjectPathError(target, "leaves the project root", action);
    current = join(current, part);
    const last = index === parts.length - 1;
    if (!last && plainFolders.has(current)) continue;
    stat = lstatOrNull(current);
    if (stat === null) return null;
    if (stat.isSymbolicLink()) throw new UnsafeProjectPathError(target, `${current} is a symlink`, action);
    if (!last && !stat.isDirectory()) throw new UnsafeProjectPathError(target, `${current} is not a folder`, action);
    if (!last) plainFolders.add(current);
  }
  return stat;
}

/**
 * `mkdir -p` inside the project, one component at a time, refusing symlinks and non-folders on the way: one `lstat`
 * per existing component not checked before, a `mkdir` only for the missing ones.
 */
export function ensureProjectDir(root: string, dir: string): void {
  if (relative(root, dir) === "") return;
  const parts = componentsBelow(root, dir);
  if (!parts) throw new UnsafeProjectPathError(dir, "outside the project root");
  let current = root;
  let missing = false;
  for (const part of parts) {
    if (part === "..") throw new UnsafeProjectPathError(dir, "leaves the project root");
    current = join(current, part);
    if (plainFolders.has(current)) continue;
    if (missing) {
      makeDir(dir, current);
    } else {
      const stat = lstatOrNull(current);
      if (stat === null) {
        missing = true;
        makeDir(dir, current);
      } else if (stat.isSymbolicLink()) throw new UnsafeProjectPathError(dir, `${current} is a symlink`);
      else if (!stat.isDirectory()) throw new UnsafeProjectPathError(dir, `${current} is not a folder`);
    }
    plainFolders.add(current);
  }
}

/**
 * After ensureProjectDir(dirname(path)) has walked the folders: the file itself, inside the root and no symlink.
 * Returns its lstat, null when it does not exist.
 */
function assertLeaf(root: string, path: string): Stats | null {
  const parts = componentsBelow(root, path);
  if (!parts || parts.at(-1) === "..") throw new UnsafeProjectPathError(path, "outside the project root");
  const stat = lstatOrNull(path);
  if (stat?.isSymbolicLink()) throw new UnsafeProjectPathError(path, `${path} is a symlink`);
  return stat;
}

/** Whether anything (a file, a folder, a symlink, even a dangling one) has this name; follows nothing. */
export function entryExists(path: string): boolean {
  try {
    return lstatOrNull(path) !== null;
  } catch {
    return false;
  }
}

/** throwIfNoEntry: a missing file is the usual answer here, and an exception costs far more than the lstat. */
function lstatOrNull(path: string): Stats | null {
  return lstatSync(path, { throwIfNoEntry: false }) ?? null;
}

/** One `mkdir`; a folder another process made meanwhile is fine, anything else there is not. */
function makeDir(target: string, path: string): void {
  try {
    mkdirSync(path);
  } catch (error) {
    if (errno(error) !== "EEXIST") throw error;
    const stat = lstatSync(path);
    if (stat.isSymbolicLink() || !stat.isDirectory()) throw new UnsafeProjectPathError(target, `${path} is not a plain folder`);
  }
}

/**
 * assertProjectPath, and the file itself, when it exists, must be a regular file with no other hard link (a FIFO
 * would block its reader, a hard link would let a write land in someone else's file). Returns whether it exists.
 */
export function assertProjectFile(root: string, path: string, action: FileAction = "write"): boolean {
  const stat = assertProjectPath(root, path, action);
  if (stat === null) return false;
  if (!stat.isFile()) throw new UnsafeProjectPathError(path, "not a regular file", action);
  if (stat.nlink > 1) throw new UnsafeProjectPathError(path, "the file has other hard links", action);
  return true;
}

/**
 * Appends `data` to a project file with one O_APPEND write (lines from parallel processes never interleave),
 * creating it and its folders when missing. Refuses a symlink anywhere on the way (O_NOFOLLOW on the file itself)
 * and a file that is not a regular file or has another hard link (appending would write into someone else's file).
 * The leaf's lstat decides what the file is (the walk just took it); the write is one appendFileSync call with the
 * flags, as cheap as the plain append the hook path made before (an open descriptor written through cost a hook
 * 0.05-0.1 ms more).
 */
export function appendProjectFile(root: string, path: string, data: string, options: { rotateAbove?: number } = {}): void {
  ensureProjectDir(root, dirname(path));
  const stat = assertLeaf(root, path);
  if (stat !== null && !stat.isFile()) throw new UnsafeProjectPathError(path, "not a regular file");
  if (stat !== null && stat.nlink > 1) throw new UnsafeProjectPathError(path, "the file has other hard links");
  // The bounded files (hooks.log, a session's events.ndjson): the same lstat says when the file is full.
  if (stat !== null && options.rotateAbove !== undefined && stat.size > options.rotateAbove) rotate(root, path);
  appendFileSync(path, data, { flag: openFlags(constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NOFOLLOW), mode: 0o644 });
}

/**
 * A full file becomes `<path>.1`, replacing the older generation: one rename inside its folder, never through a
 * symlink there (refused, the file then grows on). A rename that fails (a Windows reader holding the file) leaves it
 * for the next append; the append goes ahead either way.
 */
function rotate(root: string, path: string): void {
  try {
    const older = `${path}.1`;
    assertProjectPath(root, older);
    renameSync(path, older);
  } catch {
    // The next append tries again.
  }
}

/**
 * Numeric open flags for the `flag` option of writeFileSync/appendFileSync: Node and Bun pass it to open as they
 * pass fs.openSync's flags (a number or a string), but the type declarations only spell the string form, which has
 * no O_NOFOLLOW.
 */
function openFlags(flags: number): string {
  return flags as unknown as string;
}

const CREATE_NEW = openFlags(constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW);

/**
 * Creates a project file that must not exist yet (O_EXCL: never through an existing name or symlink), e.g. a
 * `.gitignore`; false when something already has that name.
 */
export function createProjectFile(root: string, path: string, data: string): boolean {
  ensureProjectDir(root, dirname(path));
  assertLeaf(root, path);
  try {
    writeFileSync(path, data, { flag: CREATE_NEW, mode: 0o644 });
    return true;
  } catch (error) {
    if (errno(error) === "EEXIST") return false;
    throw error;
  }
}

/** Removes a project file (never through a symlinked folder; a symlink itself is removed, not its target). */
export function removeProjectFile(root: string, path: string): void {
  assertProjectPath(root, path);
  try {
    unlinkSync(path);
  } catch (error) {
    if (errno(error) !== "ENOENT") throw error;
  }
}

/** The temp-file prefix of aioson's atomic writes; stale ones (a process killed mid-write) can be recognised. */
export const TEMP_MARK = ".aioson-tmp-";

/** Temp names taken by this process: with the pid and the time, unique (and O_EXCL refuses a clash anyway). */
let tempCount = 0;

export function projectTempPath(path: string): string {
  // No Math.random: its first call costs a hook 0.04 ms, and pid + time + counter is already unique.
  tempCount += 1;
  return join(dirname(path), `.${basename(path)}${TEMP_MARK}${process.pid}-${Date.now().toString(36)}${tempCount.toString(36)}`);
}

/**
 * Replaces a project file atomically (temp file + rename, so readers never see half a file). The temp file is
 * created exclusively (never through an existing name or symlink); the rename replaces the directory entry, never
 * a symlink's target, and the target itself must not be a symlink. Stale temp files of the same target (a writer
 * killed mid-write) are removed afterwards.
 */
export function writeProjectFileAtomic(root: string, path: string, data: string, mode = 0o644): void {
  ensureProjectDir(root, dirname(path));
  assertLeaf(root, path);
  const temp = projectTempPath(path);
  try {
    writeFileSync(temp, data, { flag: CREATE_NEW, mode });
    renameSync(temp, path);
  } catch (error) {
    // EEXIST: that name belongs to someone else, and only a temp file this call created may be removed.
    if (errno(error) !== "EEXIST") rmSync(temp, { force: true });
    throw error;
  }
  removeStaleTemps(path);
}

/** A temp file whose writer may still be running is left alone for this long (its pid may have been reused). */
const TEMP_GRACE_MS = 10 * 60_000;

function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return errno(error) === "ESRCH";
  }
}

/**
 * Removes the temp files of aioson's own naming (`.<name>.aioson-tmp-<pid>-…`) next to `path` whose writer is gone,
 * or that are older than TEMP_GRACE_MS: a process killed between creating its temp file and the rename leaves one.
 * Only regular files and symlinks with that exact prefix are touched; failures are ignored (housekeeping).
 */
export function removeStaleTemps(path: string): void {
  const prefix = `.${basename(path)}${TEMP_MARK}`;
  const dir = dirname(path);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number.parseInt(name.slice(prefix.length), 10);
    const temp = join(dir, name);
    try {
      const stat = lstatSync(temp);
      if (!stat.isFile() && !stat.isSymbolicLink()) continue;
      const stale = !Number.isInteger(pid) || pid <= 0 || (pid !== process.pid && processGone(pid)) || Date.now() - stat.mtimeMs > TEMP_GRACE_MS;
      if (stale) unlinkSync(temp);
    } catch {
      // Another process removed or replaced it meanwhile.
    }
  }
}

/**
 * A file aioson keeps inside the project (pointer, state.json): read only when no component on the way is a
 * symlink (the same rule as a write: a committed symlink must not pull another file into aioson), and only a
 * regular file of at most `maxBytes`. Null when it does not exist; throws when it is refused.
 */
export function readProjectFile(root: string, path: string, maxBytes: number): string | null {
  const stat = assertProjectPath(root, path, "read");
  if (stat === null) return null;
  // The walk's lstat of the file itself decides (a regular file, not a symlink, within the bound), so the read is
  // one readFileSync: the descriptor-checked reader costs a hook 0.08 ms more per file.
  if (!stat.isFile()) throw new UnsafeProjectPathError(path, "not a regular file", "read");
  if (stat.size > maxBytes) throw new UnsafeProjectPathError(path, `larger than ${maxBytes} bytes`, "read");
  return readFileSync(path, "utf8");
}
