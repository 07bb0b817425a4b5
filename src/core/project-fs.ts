/**
 * Writes into a project: the project is untrusted (README "Security"), so a path that aioson builds under a
 * project root is written only when it stays inside that root and no file or folder on the way is a symlink (aioson
 * never makes symlinks, so any symlink there was put by someone else). Every write into a project goes through
 * this module: the store and its `-wal`/`-shm`, `live/` files, `hooks.log`, pointers, snapshots, workspace harness
 * configs. The user-level configs in HOME are not project paths and keep their own rules (spec 9.9).
 *
 * Cost: one `lstat` per path component below the root (a handful of microseconds per write).
 */
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, sep } from "node:path";

/** Thrown when a project path must not be written; callers on a hook path log it and carry on. */
export class UnsafeProjectPathError extends Error {
  readonly code = "unsafe_project_path";
  constructor(
    readonly path: string,
    readonly why: string,
  ) {
    super(`refused to write ${path}: ${why}`);
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
  return rel.split(sep).filter((part) => part !== "" && part !== ".");
}

/**
 * Checks that `target` (absolute) is inside `root` (a real path, as the project-root walk returns it) and that no
 * existing component from the first one below the root down to `target` itself is a symlink; a missing component
 * ends the walk (what does not exist yet will be created by aioson as a plain folder or file). Throws
 * UnsafeProjectPathError otherwise.
 */
export function assertProjectPath(root: string, target: string): void {
  const parts = componentsBelow(root, target);
  if (!parts) throw new UnsafeProjectPathError(target, "outside the project root");
  let current = root;
  for (const [index, part] of parts.entries()) {
    if (part === "..") throw new UnsafeProjectPathError(target, "leaves the project root");
    current = join(current, part);
    let stat;
    try {
      stat = lstatSync(current);
    } catch (error) {
      if (errno(error) === "ENOENT") return;
      throw error;
    }
    if (stat.isSymbolicLink()) throw new UnsafeProjectPathError(target, `${current} is a symlink`);
    if (index < parts.length - 1 && !stat.isDirectory()) throw new UnsafeProjectPathError(target, `${current} is not a folder`);
  }
}

/** `mkdir -p` inside the project, one component at a time, refusing symlinks on the way. */
export function ensureProjectDir(root: string, dir: string): void {
  assertProjectPath(root, dir);
  const parts = componentsBelow(root, dir) ?? [];
  let current = root;
  for (const part of parts) {
    current = join(current, part);
    try {
      mkdirSync(current);
    } catch (error) {
      if (errno(error) !== "EEXIST") throw error;
      const stat = lstatSync(current);
      if (stat.isSymbolicLink() || !stat.isDirectory()) throw new UnsafeProjectPathError(dir, `${current} is not a plain folder`);
    }
  }
}

/**
 * Appends `data` to a project file with one O_APPEND write (lines from parallel processes never interleave),
 * creating it and its folders when missing. Refuses a symlink anywhere on the way (O_NOFOLLOW on the file itself)
 * and a file that is not a regular file or has another hard link (appending would write into someone else's file).
 */
export function appendProjectFile(root: string, path: string, data: string): void {
  ensureProjectDir(root, dirname(path));
  assertProjectPath(root, path);
  const fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NOFOLLOW, 0o644);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new UnsafeProjectPathError(path, "not a regular file");
    if (stat.nlink > 1) throw new UnsafeProjectPathError(path, "the file has other hard links");
    const bytes = Buffer.from(data, "utf8");
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
  } finally {
    closeSync(fd);
  }
}

/** The temp-file prefix of aioson's atomic writes; stale ones (a process killed mid-write) can be recognised. */
export const TEMP_MARK = ".aioson-tmp-";

export function projectTempPath(path: string): string {
  return join(dirname(path), `.${basename(path)}${TEMP_MARK}${process.pid}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`);
}

/**
 * Replaces a project file atomically (temp file + rename, so readers never see half a file). The temp file is
 * created exclusively (never through an existing name or symlink); the rename replaces the directory entry, never
 * a symlink's target, and the target itself must not be a symlink.
 */
export function writeProjectFileAtomic(root: string, path: string, data: string, mode = 0o644): void {
  ensureProjectDir(root, dirname(path));
  assertProjectPath(root, path);
  const temp = projectTempPath(path);
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, mode);
  let open = true;
  try {
    const bytes = Buffer.from(data, "utf8");
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    open = false;
    closeSync(fd);
    renameSync(temp, path);
  } catch (error) {
    if (open) closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
}
