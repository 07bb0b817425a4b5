/**
 * Reads and writes of project files. The project is untrusted (docs/security.md): a path that aioson builds under a
 * project root is used only when it stays inside that root and no file or folder on the way is a symlink (aioson
 * never makes symlinks, so any symlink there was put by someone else); a file only when it is a regular file, with
 * no other hard link when it is written, of a bounded size when it is read, and no open waits for a FIFO's other end.
 * Every write into a project goes through this module (the store and its `-wal`/`-shm`, `live/` files, `hooks.log`,
 * pointers, snapshots, workspace harness configs), and so does every read of a project file: rules and documents,
 * kit files, lessons, context files, `state.json`, pointers. The user-level configs in HOME are not project paths and
 * keep their own rules (spec 9.9).
 *
 * Checking a path and then opening it leaves a window: a process in the project (an agent's sandboxed command may
 * write there and nowhere else) can swap a folder on the way for a symlink in between. Node and Bun have no openat,
 * but on Linux `/proc/self/fd/<fd>/<name>` is `<name>` looked up inside the folder open on `<fd>`, wherever that
 * folder is now, with O_NOFOLLOW applying to `<name>`. So on Linux the folder of a file is opened (O_DIRECTORY |
 * O_NOFOLLOW), the kernel's path of what was opened (`readlink /proc/self/fd/<fd>`) must be the path it has below the
 * root, and the file is then opened, created, renamed or removed inside that open folder; a missing folder is made
 * and opened inside its parent the same way. Elsewhere (macOS, Windows, a Linux without /proc) the lstat walk checks
 * the path, and a file, once opened, must be what a fresh walk finds at its path (same device and inode): that
 * catches a folder swapped before the open, not one swapped and swapped back around it.
 *
 * Cost: an open, a readlink and a close per folder used (a few microseconds per file).
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
  type Dirent,
  type Stats,
} from "node:fs";
import { basename, dirname, isAbsolute, join, relative, sep } from "node:path";
import { openRegularFile, readBytes, readOpenedFile, type RegularFileRead, type UnsafeRead } from "./regular-file.ts";

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
/** Added to every open of a project file: never through a symlink as the file itself, never waiting for a FIFO. */
const FILE_FLAGS = NOFOLLOW | (constants.O_NONBLOCK ?? 0);
/** A folder is opened only when it is one, and not a symlink to one (Linux; see the module comment). */
const FOLDER_FLAGS = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | NOFOLLOW;
const PROC_FD = "/proc/self/fd";

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

function isRootPath(root: string, dir: string): boolean {
  return relative(root, dir) === "";
}

/**
 * Folders this process has already found to be plain folders inside a root, for the path checks of assertProjectPath
 * (the store's opening, the installers) and of platforms without /proc: what was checked a moment ago is not walked
 * again. The reads and writes of this module do not rely on it on Linux (a folder is held open there).
 */
const plainFolders = new Set<string>();

/**
 * Checks that `target` (absolute) is inside `root` (a real path, as the project-root walk returns it) and that no
 * existing component from the first one below the root down to `target` itself is a symlink; a missing component
 * ends the walk (what does not exist yet will be created by aioson as a plain folder or file). Throws
 * UnsafeProjectPathError otherwise; returns the target's own lstat, null when it does not exist.
 */
export function assertProjectPath(root: string, target: string, action: FileAction = "write"): Stats | null {
  return walkPath(root, target, action, true);
}

/** assertProjectPath's lstat walk; `cached`: folders in plainFolders are not looked at again. */
function walkPath(root: string, target: string, action: FileAction, cached: boolean): Stats | null {
  const parts = componentsBelow(root, target);
  if (!parts) throw new UnsafeProjectPathError(target, "outside the project root", action);
  let current = root;
  let stat: Stats | null = null;
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index] as string;
    if (part === "..") throw new UnsafeProjectPathError(target, "leaves the project root", action);
    current = join(current, part);
    const last = index === parts.length - 1;
    if (cached && !last && plainFolders.has(current)) continue;
    stat = lstatOrNull(current);
    if (stat === null) return null;
    if (stat.isSymbolicLink()) throw new UnsafeProjectPathError(target, `${current} is a symlink`, action);
    if (!last && !stat.isDirectory()) throw new UnsafeProjectPathError(target, `${current} is not a folder`, action);
    if (!last) plainFolders.add(current);
  }
  return stat;
}

/**
 * `mkdir -p` inside the project, never through a symlink or into a non-folder on the way (see makeFolder). A folder
 * this process has made or found already is not looked at again: this writes nothing then, and every write below
 * opens its folder anew (a hook calls this before each of its files).
 */
export function ensureProjectDir(root: string, dir: string): void {
  if (isRootPath(root, dir) || plainFolders.has(dir)) return;
  closeProjectFolder(makeFolder(root, dir));
  plainFolders.add(dir);
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
 * A folder inside a project, as the reads and writes here use it: on Linux it is open on `fd` and every name is
 * looked up inside it through `base` (`/proc/self/fd/<fd>`); elsewhere `fd` is null and `base` is its path, which the
 * lstat walk checked. Close it with closeProjectFolder.
 */
export type ProjectFolder = { readonly root: string; readonly path: string; readonly fd: number | null; readonly base: string };

/** Whether this process can hold folders open and name files inside them (Linux with /proc): null until tried. */
let procFolders: boolean | null = process.platform === "linux" ? null : false;

const realRoots = new Map<string, string>();

/**
 * The root as the kernel names it (the project-root walk returns real paths already; a user command's root may lie
 * below a symlink of the user's own, e.g. macOS /var). One call per root; a root that does not exist yet is asked again.
 */
function realRoot(root: string): string {
  const known = realRoots.get(root);
  if (known !== undefined) return known;
  try {
    const real = realpathSync(root);
    realRoots.set(root, real);
    return real;
  } catch {
    return root;
  }
}

function heldFolder(root: string, path: string, fd: number): ProjectFolder {
  return { root, path, fd, base: join(PROC_FD, String(fd)) };
}

/** Where the folder open on `fd` is, as the kernel says; null without /proc/self/fd. */
function heldPath(fd: number): string | null {
  try {
    return readlinkSync(join(PROC_FD, String(fd)));
  } catch (error) {
    if (errno(error) === "ENOENT") return null;
    throw error;
  }
}

function assertInside(root: string, dir: string, action: FileAction): void {
  if (!isRootPath(root, dir) && componentsBelow(root, dir) === null) throw new UnsafeProjectPathError(dir, "outside the project root", action);
}

/**
 * Why `dir` did not open as a plain folder inside the root: a fresh walk names the symlink or the file on the way;
 * when it finds neither, something on the way was swapped while it was opened.
 */
function folderRefusal(root: string, dir: string, action: FileAction): UnsafeProjectPathError {
  try {
    const stat = walkPath(root, dir, action, false);
    if (stat !== null && !stat.isDirectory()) return new UnsafeProjectPathError(dir, `${dir} is not a folder`, action);
  } catch (error) {
    if (isUnsafeProjectPath(error)) return error;
  }
  return new UnsafeProjectPathError(dir, "a folder on the way changed while it was opened", action);
}

/**
 * Linux: `dir` opened by its path, kept only when the kernel's path of the open folder is the one it has below the
 * root (any symlink on the way would have been followed, and shows there). "no-proc" without /proc.
 */
function openHeld(root: string, dir: string, action: FileAction): ProjectFolder | "missing" | "no-proc" {
  let fd: number;
  try {
    fd = openSync(dir, FOLDER_FLAGS);
  } catch (error) {
    const code = errno(error);
    if (code === "ENOENT") return "missing";
    // O_DIRECTORY | O_NOFOLLOW: ENOTDIR for a symlink or a file, ELOOP for a symlink on some kernels.
    if (code === "ENOTDIR" || code === "ELOOP") throw folderRefusal(root, dir, action);
    throw error;
  }
  try {
    const where = heldPath(fd);
    if (where === null) {
      closeSync(fd);
      procFolders = false;
      return "no-proc";
    }
    procFolders = true;
    // A hook's root is a real path already: the realpath is paid only when it is not.
    const rel = relative(root, dir);
    if (where !== join(root, rel) && where !== join(realRoot(root), rel)) throw folderRefusal(root, dir, action);
    return heldFolder(root, dir, fd);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** Linux: `dir` opened, or made inside its parent (itself opened or made first) and opened there. */
function makeHeld(root: string, dir: string): ProjectFolder | "no-proc" {
  const opened = openHeld(root, dir, "write");
  if (opened !== "missing") return opened;
  // The error a plain mkdir would give: a user command makes its missing start folder and tries again (store/db.ts).
  if (isRootPath(root, dir)) throw Object.assign(new Error(`ENOENT: no such file or directory, open '${dir}'`), { code: "ENOENT" });
  const parent = makeHeld(root, dirname(dir));
  if (parent === "no-proc") return parent;
  try {
    const inside = join(parent.base, basename(dir));
    try {
      mkdirSync(inside);
    } catch (error) {
      // Another process made it meanwhile; O_NOFOLLOW | O_DIRECTORY below says whether it is a plain folder.
      if (errno(error) !== "EEXIST") throw error;
    }
    try {
      return heldFolder(root, dir, openSync(inside, FOLDER_FLAGS));
    } catch (error) {
      const code = errno(error);
      if (code === "ENOTDIR" || code === "ELOOP") throw new UnsafeProjectPathError(dir, `${dir} is not a plain folder`);
      throw error;
    }
  } finally {
    closeProjectFolder(parent);
  }
}

/** Without /proc: the walk made the missing folders one component at a time, refusing symlinks and non-folders. */
function walkMakingFolders(root: string, dir: string): void {
  const parts = componentsBelow(root, dir);
  if (!parts) return;
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

/** The folder `dir` of a project, made (with the folders above it) when missing. */
function makeFolder(root: string, dir: string): ProjectFolder {
  assertInside(root, dir, "write");
  if (procFolders !== false) {
    const held = makeHeld(root, dir);
    if (held !== "no-proc") return held;
  }
  walkMakingFolders(root, dir);
  return { root, path: dir, fd: null, base: dir };
}

/**
 * An existing folder of a project, for reading what is inside it; null when it does not exist. Throws
 * UnsafeProjectPathError when it is outside the root, a symlink, behind one, or not a folder.
 */
export function openProjectFolder(root: string, dir: string, action: FileAction = "read"): ProjectFolder | null {
  assertInside(root, dir, action);
  if (procFolders !== false) {
    const held = openHeld(root, dir, action);
    if (held === "missing") return null;
    if (held !== "no-proc") return held;
  }
  if (!isRootPath(root, dir)) {
    const stat = walkPath(root, dir, action, true);
    if (stat === null) return null;
    if (!stat.isDirectory()) throw new UnsafeProjectPathError(dir, `${dir} is not a folder`, action);
  }
  return { root, path: dir, fd: null, base: dir };
}

export function closeProjectFolder(folder: ProjectFolder): void {
  if (folder.fd !== null) closeSync(folder.fd);
}

/**
 * A folder whose size, as its file system reports it, passes this is not listed: ext4 counts some 35,000 short names
 * per MiB, and 200,000 empty files (a few MB in git) took a listing 100 MiB and 70 ms on every write.
 */
export const MAX_LISTED_FOLDER_BYTES = 1024 * 1024;

/**
 * The entries of an open project folder (their kinds as the folder lists them: a symlink is a symlink); null when
 * the folder is larger than MAX_LISTED_FOLDER_BYTES.
 */
export function folderEntries(folder: ProjectFolder): Dirent[] | null {
  const size = folder.fd === null ? lstatSync(folder.base).size : fstatSync(folder.fd).size;
  return size > MAX_LISTED_FOLDER_BYTES ? null : readdirSync(folder.base, { withFileTypes: true });
}

/** Why folderEntries listed nothing, for the hook log. */
export const UNLISTED_FOLDER = `a folder larger than ${MAX_LISTED_FOLDER_BYTES} bytes as its file system counts them, not listed`;

/** Why a name in a folder is no plain file or folder: its own lstat (looked up inside the folder) says which. */
function entryRefusal(folder: ProjectFolder, name: string, wanted: "file" | "folder", action: FileAction): UnsafeProjectPathError {
  const path = join(folder.path, name);
  const stat = lstatOrNull(join(folder.base, name));
  const why = stat?.isSymbolicLink() ? `${path} is a symlink` : wanted === "folder" ? `${path} is not a folder` : "not a regular file";
  return new UnsafeProjectPathError(path, why, action);
}

/** A folder inside an open project folder; null when missing. Throws UnsafeProjectPathError for a symlink or a non-folder. */
export function openSubfolder(folder: ProjectFolder, name: string): ProjectFolder | null {
  const path = join(folder.path, name);
  if (folder.fd === null) {
    const stat = lstatOrNull(path);
    if (stat === null) return null;
    if (stat.isSymbolicLink() || !stat.isDirectory()) throw entryRefusal(folder, name, "folder", "read");
    return { root: folder.root, path, fd: null, base: path };
  }
  try {
    return heldFolder(folder.root, path, openSync(join(folder.base, name), FOLDER_FLAGS));
  } catch (error) {
    const code = errno(error);
    if (code === "ENOENT") return null;
    if (code === "ENOTDIR" || code === "ELOOP") throw entryRefusal(folder, name, "folder", "read");
    throw error;
  }
}

/**
 * Without held folders: what was just opened on `fd` must be what a fresh walk finds at `path` (same device and
 * inode), or a folder on the way was swapped before the open. The caller closes `fd`.
 */
function confirmOpened(root: string, path: string, fd: number, action: FileAction): void {
  const found = walkPath(root, path, action, false);
  const opened = fstatSync(fd);
  if (found === null || found.dev !== opened.dev || found.ino !== opened.ino) throw new UnsafeProjectPathError(path, "a folder on the way changed while it was opened", action);
}

/** Opens `name` in a project folder for writing (never through a symlink, never waiting for a FIFO). */
function openInFolder(folder: ProjectFolder, name: string, flags: number, mode = 0o644): number {
  let fd: number;
  try {
    fd = openSync(join(folder.base, name), flags | FILE_FLAGS, mode);
  } catch (error) {
    const code = errno(error);
    // ELOOP: a symlink (O_NOFOLLOW); ENXIO: a FIFO nobody reads, or a socket; EISDIR: a folder.
    if (code === "ELOOP" || code === "ENXIO" || code === "EISDIR") throw entryRefusal(folder, name, "file", "write");
    throw error;
  }
  if (folder.fd === null) {
    try {
      confirmOpened(folder.root, join(folder.path, name), fd, "write");
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }
  return fd;
}

/** The file just opened for writing is a regular file with no other name (a hard link would let a write land in someone else's file). */
function assertWritable(fd: number, path: string): Stats {
  const stat = fstatSync(fd);
  if (!stat.isFile()) throw new UnsafeProjectPathError(path, "not a regular file");
  if (stat.nlink > 1) throw new UnsafeProjectPathError(path, "the file has other hard links");
  return stat;
}

/** The file name of `path`, which must be strictly inside the root (its folder is opened on its own). */
function fileName(root: string, path: string, action: FileAction): string {
  const name = componentsBelow(root, path)?.at(-1);
  if (name === undefined || name === "..") throw new UnsafeProjectPathError(path, "outside the project root", action);
  return name;
}

/**
 * Appends `data` to a project file with one O_APPEND write (lines from parallel processes never interleave),
 * creating it and its folders when missing. Refuses a symlink anywhere on the way and a file that is not a regular
 * file or has another hard link (appending would write into someone else's file); the opened file's fstat decides.
 * `rotateAbove` (hooks.log, a session's events.ndjson): a file past that size moves aside first.
 */
export function appendProjectFile(root: string, path: string, data: string, options: { rotateAbove?: number } = {}): void {
  const name = fileName(root, path, "write");
  const folder = makeFolder(root, dirname(path));
  try {
    if (!appendInFolder(folder, name, data, options.rotateAbove)) appendInFolder(folder, name, data, undefined);
  } finally {
    closeProjectFolder(folder);
  }
}

/** One append; false, with nothing written, when the file was past `rotateAbove` and has just moved aside. */
function appendInFolder(folder: ProjectFolder, name: string, data: string, rotateAbove: number | undefined): boolean {
  const fd = openInFolder(folder, name, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT);
  try {
    const stat = assertWritable(fd, join(folder.path, name));
    if (rotateAbove !== undefined && stat.size > rotateAbove && rotate(folder, name)) return false;
    writeFileSync(fd, data);
    return true;
  } finally {
    closeSync(fd);
  }
}

/**
 * A full file becomes `<name>.1`, replacing the older generation: one rename inside its folder, never onto a symlink
 * there (refused, the file then grows on). A rename that fails (a Windows reader holding the file) leaves it for the
 * next append; the append goes ahead either way.
 */
function rotate(folder: ProjectFolder, name: string): boolean {
  try {
    const older = join(folder.base, `${name}.1`);
    if (lstatOrNull(older)?.isSymbolicLink()) return false;
    renameSync(join(folder.base, name), older);
    return true;
  } catch {
    return false;
  }
}

/**
 * Creates a project file that must not exist yet (O_EXCL: never through an existing name or symlink), e.g. a
 * `.gitignore`; false when something already has that name.
 */
export function createProjectFile(root: string, path: string, data: string): boolean {
  const name = fileName(root, path, "write");
  const folder = makeFolder(root, dirname(path));
  try {
    let fd: number;
    try {
      fd = openInFolder(folder, name, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL);
    } catch (error) {
      if (errno(error) === "EEXIST") return false;
      throw error;
    }
    try {
      writeFileSync(fd, data);
    } finally {
      closeSync(fd);
    }
    return true;
  } finally {
    closeProjectFolder(folder);
  }
}

/** Removes a project file (never through a symlinked folder; a symlink itself is removed, not its target). */
export function removeProjectFile(root: string, path: string): void {
  const name = fileName(root, path, "write");
  const folder = openProjectFolder(root, dirname(path), "write");
  if (folder === null) return;
  try {
    unlinkSync(join(folder.base, name));
  } catch (error) {
    if (errno(error) !== "ENOENT") throw error;
  } finally {
    closeProjectFolder(folder);
  }
}

/** The temp-file prefix of aioson's atomic writes; stale ones (a process killed mid-write) can be recognised. */
export const TEMP_MARK = ".aioson-tmp-";

/** Temp names taken by this process: with the pid and the time, unique (and O_EXCL refuses a clash anyway). */
let tempCount = 0;

function tempName(name: string): string {
  // No Math.random: its first call costs a hook 0.04 ms, and pid + time + counter is already unique.
  tempCount += 1;
  return `.${name}${TEMP_MARK}${process.pid}-${Date.now().toString(36)}${tempCount.toString(36)}`;
}

/**
 * Replaces a project file atomically (temp file + rename, so readers never see half a file). The temp file is
 * created exclusively (never through an existing name or symlink) in the file's folder, and renamed there; the
 * rename replaces the directory entry, never a symlink's target, and the target itself must not be a symlink. Stale
 * temp files of the same target (a writer killed mid-write) are removed afterwards.
 */
export function writeProjectFileAtomic(root: string, path: string, data: string, mode = 0o644): void {
  const name = fileName(root, path, "write");
  const folder = makeFolder(root, dirname(path));
  try {
    if (lstatOrNull(join(folder.base, name))?.isSymbolicLink()) throw new UnsafeProjectPathError(path, `${path} is a symlink`);
    const temp = tempName(name);
    // EEXIST here: that name belongs to someone else, and only a temp file this call created may be removed.
    const fd = openInFolder(folder, temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode);
    try {
      try {
        writeFileSync(fd, data);
      } finally {
        closeSync(fd);
      }
      renameSync(join(folder.base, temp), join(folder.base, name));
    } catch (error) {
      rmSync(join(folder.base, temp), { force: true });
      throw error;
    }
    removeStaleTemps(folder, name);
  } finally {
    closeProjectFolder(folder);
  }
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
 * Removes the temp files of aioson's own naming (`.<name>.aioson-tmp-<pid>-…`) in the folder whose writer is gone,
 * or that are older than TEMP_GRACE_MS: a process killed between creating its temp file and the rename leaves one.
 * Only regular files and symlinks with that exact prefix are touched; failures are ignored (housekeeping).
 */
function removeStaleTemps(folder: ProjectFolder, name: string): void {
  const prefix = `.${name}${TEMP_MARK}`;
  let names: string[];
  try {
    names = readdirSync(folder.base);
  } catch {
    return;
  }
  for (const entry of names) {
    if (!entry.startsWith(prefix)) continue;
    const pid = Number.parseInt(entry.slice(prefix.length), 10);
    const temp = join(folder.base, entry);
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

/** A project file's read: its text, or why it was not read (missing, refused by the path rule, not a file, too large). */
export type ProjectFileRead = RegularFileRead | UnsafeRead;

/**
 * The one way aioson reads a file of a project: inside the root, no symlink on the way or as the file itself, a
 * regular file (opened non-blocking, checked on the descriptor) of at most `maxBytes`, of which no more is read.
 */
export function readProjectFile(root: string, path: string, maxBytes: number): ProjectFileRead {
  return readProjectWith(root, path, (fd, size) => readOpenedFile(fd, size, maxBytes));
}

/** The last `maxBytes` of a project file (all of a smaller one; the first line may be cut), for the newest lines of a log. */
export function readProjectTail(root: string, path: string, maxBytes: number): ProjectFileRead {
  return readProjectWith(root, path, (fd, size) => {
    const length = Math.min(size, maxBytes);
    return { kind: "ok", text: readBytes(fd, size - length, length).toString("utf8") };
  });
}

/** readProjectFile of a file in an open project folder. */
export function readFolderFile(folder: ProjectFolder, name: string, maxBytes: number): ProjectFileRead {
  return readInFolder(folder, name, (fd, size) => readOpenedFile(fd, size, maxBytes));
}

/** How an opened regular file is read (`size` from its fstat); the descriptor is closed afterwards. */
type OpenedRead = (fd: number, size: number) => RegularFileRead;

function readProjectWith(root: string, path: string, read: OpenedRead): ProjectFileRead {
  try {
    const name = fileName(root, path, "read");
    const folder = openProjectFolder(root, dirname(path));
    if (folder === null) return { kind: "missing" };
    try {
      return readInFolder(folder, name, read);
    } finally {
      closeProjectFolder(folder);
    }
  } catch (error) {
    if (isUnsafeProjectPath(error)) return { kind: "unsafe", why: error.why };
    return { kind: "error", code: errno(error) ?? "EIO" };
  }
}

function readInFolder(folder: ProjectFolder, name: string, read: OpenedRead): ProjectFileRead {
  const opened = openRegularFile(join(folder.base, name), { noFollow: true });
  if (opened.kind === "error" && opened.code === "ELOOP") return { kind: "unsafe", why: `${join(folder.path, name)} is a symlink` };
  if (opened.kind !== "open") return opened;
  try {
    if (folder.fd === null) confirmOpened(folder.root, join(folder.path, name), opened.fd, "read");
    return read(opened.fd, opened.size);
  } catch (error) {
    if (isUnsafeProjectPath(error)) return { kind: "unsafe", why: error.why };
    return { kind: "error", code: errno(error) ?? "EIO" };
  } finally {
    closeSync(opened.fd);
  }
}
