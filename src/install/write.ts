/**
 * Reading and writing harness config files (spec 9.9): refuse what does not parse, skip what cannot be read,
 * write atomically next to the real target (through symlinks), keep permission bits, never write an unchanged file.
 */
import { closeSync, fsyncSync, lstatSync, mkdirSync, openSync, readdirSync, readlinkSync, realpathSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { assertProjectPath, isUnsafeProjectPath, TEMP_MARK, writeProjectFileAtomic } from "../core/project-fs.ts";
import { basename, dirname, join, resolve } from "node:path";
import { randomBytes } from "node:crypto";
import { readRegularFile, type RegularFileOptions } from "../core/regular-file.ts";
import { editJsonText } from "./json-edit.ts";
import { isPlainObject, jsonEqual } from "./merge.ts";
import type { JsonObject } from "./types.ts";

export type ReadResult =
  | { state: "missing"; data: JsonObject; text: null }
  | { state: "ok"; data: JsonObject; text: string }
  | { state: "invalid"; text: string }
  | { state: "unreadable"; code: string }
  /** Not a regular file, or larger than the bound: never read, never replaced. `why` completes "<path> is …". */
  | { state: "refused"; why: string };

/** A harness config is a few KiB; a bigger one is not something to parse and rewrite on every install. */
export const CONFIG_MAX_BYTES = 8 * 1024 * 1024;

export function errorCode(error: unknown): string {
  return typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : "EIO";
}

export type TextRead = { state: "missing" } | { state: "ok"; text: string } | { state: "unreadable"; code: string } | { state: "refused"; why: string };

/**
 * Reads a config file as text (spec 9.9), bounded: a FIFO, device, socket or folder is refused without blocking, and
 * so is a file over CONFIG_MAX_BYTES. `noFollow`: the file itself must not be a symlink (project paths).
 */
export function readConfigText(path: string, options: RegularFileOptions = {}): TextRead {
  const read = readRegularFile(path, CONFIG_MAX_BYTES, options);
  switch (read.kind) {
    case "ok":
      return { state: "ok", text: read.text };
    case "missing":
      return { state: "missing" };
    case "not-regular":
      return { state: "refused", why: `not a regular file (${read.what})` };
    case "too-large":
      return { state: "refused", why: `larger than ${read.limit / (1024 * 1024)} MiB` };
    case "error":
      return { state: "unreadable", code: read.code };
  }
}

/** Spec 9.9 "Reading the existing file". A BOM is tolerated (Windows editors add one). */
export function readJsonForMerge(path: string, options: RegularFileOptions = {}): ReadResult {
  const read = readConfigText(path, options);
  if (read.state === "missing") return { state: "missing", data: {}, text: null };
  if (read.state !== "ok") return read;
  const text = read.text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch {
    return { state: "invalid", text };
  }
  if (!isPlainObject(parsed)) return { state: "invalid", text };
  if (parsed.hooks !== undefined && !isPlainObject(parsed.hooks)) return { state: "invalid", text };
  return { state: "ok", data: parsed, text };
}

/** Where the bytes really go: the symlink's target when the configured path is a link (dotfiles). */
export function writeTarget(path: string): string {
  let link: string;
  try {
    if (!lstatSync(path).isSymbolicLink()) return path;
    link = readlinkSync(path);
  } catch {
    return path; // missing file: write the configured path itself
  }
  try {
    return realpathSync(path);
  } catch {
    return resolve(dirname(path), link); // dangling link: its target, never the link itself
  }
}

/** Spec 9.9's temp name for a write of `target`: `.<name>.aioson-<pid>-<random>.tmp`, next to it. */
function tempPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.aioson-${process.pid}-${randomBytes(4).toString("hex")}.tmp`);
}

/** Temp file next to the real target (created exclusively), fsync, target's permission bits (new files 0644), rename over it. */
export function writeFileAtomicKeepMode(path: string, data: string): void {
  const target = writeTarget(path);
  let mode = 0o644;
  try {
    mode = statSync(target).mode & 0o7777;
  } catch {
    // A new file: create its folder, but never the missing folder of a dangling link's target.
    if (target === path) mkdirSync(dirname(target), { recursive: true });
  }
  const temp = tempPathFor(target);
  try {
    const fd = openSync(temp, "wx", mode);
    try {
      const bytes = Buffer.from(data, "utf8");
      let written = 0;
      while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** Removes a file (through a symlink: the target goes, the link is removed too so nothing dangles). */
export function removeFile(path: string): void {
  const target = writeTarget(path);
  rmSync(target, { force: true });
  if (target !== path) rmSync(path, { force: true });
}

/**
 * Where a config file lives. In HOME (`project: null`) it is the user's: a dotfiles symlink is written through to
 * its target (spec 9.9). In a project (`project` = its root) it is untrusted ground: read without following a
 * symlink, written and removed only through src/core/project-fs.ts (inside the root, no symlink on the way).
 */
export type ConfigFile = { path: string; project: string | null };

export const userConfig = (path: string): ConfigFile => ({ path, project: null });

/**
 * The refusal for a project path that leaves `root` or goes through a symlink (src/core/project-fs.ts), or null.
 * The installer checks every project target before it writes anything, so a hostile workspace stops the whole
 * command and nothing in HOME is written either.
 */
export function unsafeProjectPath(root: string, targets: readonly string[]): string | null {
  for (const target of targets) {
    try {
      assertProjectPath(root, target);
    } catch (error) {
      if (isUnsafeProjectPath(error)) return error.message;
      throw error;
    }
  }
  return null;
}

export function readConfigFile(file: ConfigFile): ReadResult {
  return readJsonForMerge(file.path, { noFollow: file.project !== null });
}

export function writeConfigFile(file: ConfigFile, data: string): void {
  if (file.project === null) return writeFileAtomicKeepMode(file.path, data);
  let mode = 0o644;
  try {
    mode = lstatSync(file.path).mode & 0o777;
  } catch {
    // a new file
  }
  writeProjectFileAtomic(file.project, file.path, data, mode);
}

export function removeConfigFile(file: ConfigFile): void {
  if (file.project === null) return removeFile(file.path);
  assertProjectPath(file.project, file.path);
  rmSync(file.path, { force: true });
}

/** After `.<name>`: spec 9.9's temp suffix (this module) and project-fs's; group 1 is the writer's pid. */
const TEMP_SUFFIXES = [/^\.aioson-(\d+)-[0-9a-f]{8}\.tmp$/, new RegExp(`^${TEMP_MARK.replaceAll(".", "\\.")}(\\d+)-[0-9a-z]+$`)];

/** The pid in a temp name aioson gives a write of `name`, or null for any other name. */
function tempWriterPid(entry: string, name: string): number | null {
  if (!entry.startsWith(`.${name}`)) return null;
  const rest = entry.slice(name.length + 1);
  for (const suffix of TEMP_SUFFIXES) {
    const match = suffix.exec(rest);
    if (match) return Number(match[1]);
  }
  return null;
}

/** A writer that died mid-write (SIGKILL, power loss) left its temp file: its process is gone, or it is old. */
const STALE_AFTER_MS = 10 * 60 * 1000;

function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === "EPERM";
  }
}

/**
 * Deletes the stale temp files of aioson's own naming next to a config (only regular files, only those names; a
 * temp file of a write still running elsewhere is left alone). Never throws: a leftover is not worth a failure.
 */
export function cleanStaleTemps(file: ConfigFile): void {
  const target = file.project === null ? writeTarget(file.path) : file.path;
  const dir = dirname(target);
  const name = basename(target);
  try {
    if (file.project !== null) assertProjectPath(file.project, target);
    for (const entry of readdirSync(dir)) {
      const pid = tempWriterPid(entry, name);
      if (pid === null) continue;
      const path = join(dir, entry);
      const stat = lstatSync(path);
      if (!stat.isFile()) continue;
      if (isRunning(pid) && Date.now() - stat.mtimeMs < STALE_AFTER_MS) continue;
      rmSync(path, { force: true });
    }
  } catch {
    // folder missing or unreadable: nothing to clean
  }
}

/** The new bytes for `next`, or null when `next` deep-equals what is there (no write: keeps mtime and Codex trust). */
export function plannedText(read: ReadResult & { state: "missing" | "ok" }, next: JsonObject): string | null {
  if (read.state === "ok" && jsonEqual(read.data, next)) return null;
  if (read.state === "missing" && Object.keys(next).length === 0) return null;
  return editJsonText(read.text, read.data, next);
}
