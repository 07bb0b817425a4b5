/**
 * Reading and writing harness config files (spec 9.9): refuse what does not parse, skip what cannot be read,
 * write atomically next to the real target (through symlinks), keep permission bits, never write an unchanged file.
 */
import { closeSync, fsyncSync, lstatSync, mkdirSync, openSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { randomBytes } from "node:crypto";
import { editJsonText } from "./json-edit.ts";
import { isPlainObject, jsonEqual } from "./merge.ts";
import type { JsonObject } from "./types.ts";

export type ReadResult =
  | { state: "missing"; data: JsonObject; text: null }
  | { state: "ok"; data: JsonObject; text: string }
  | { state: "invalid"; text: string }
  | { state: "unreadable"; code: string };

export function errorCode(error: unknown): string {
  return typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : "EIO";
}

/** Spec 9.9 "Reading the existing file". A BOM is tolerated (Windows editors add one). */
/**
 * Reads a config file as text. A file whose mode grants nobody read access is refused with EACCES even when the
 * process could read it anyway (root): its owner said "do not read", and root and users then behave alike.
 */
export function readConfigText(path: string): string {
  if (process.platform !== "win32") {
    try {
      if ((statSync(path).mode & 0o444) === 0) throw Object.assign(new Error(`EACCES: permission denied, open '${path}'`), { code: "EACCES" });
    } catch (error) {
      if (errorCode(error) !== "ENOENT") throw error;
    }
  }
  return readFileSync(path, "utf8");
}

export function readJsonForMerge(path: string): ReadResult {
  let text: string;
  try {
    text = readConfigText(path);
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT") return { state: "missing", data: {}, text: null };
    return { state: "unreadable", code };
  }
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

/** Temp file next to the real target, fsync, target's permission bits (new files 0644), rename over it. */
export function writeFileAtomicKeepMode(path: string, data: string): void {
  const target = writeTarget(path);
  let mode = 0o644;
  try {
    mode = statSync(target).mode & 0o7777;
  } catch {
    // A new file: create its folder, but never the missing folder of a dangling link's target.
    if (target === path) mkdirSync(dirname(target), { recursive: true });
  }
  const temp = join(dirname(target), `.${basename(target)}.aioson-${process.pid}-${randomBytes(4).toString("hex")}.tmp`);
  try {
    const fd = openSync(temp, "w", mode);
    try {
      writeSync(fd, data);
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

/** The new bytes for `next`, or null when `next` deep-equals what is there (no write: keeps mtime and Codex trust). */
export function plannedText(read: ReadResult & { state: "missing" | "ok" }, next: JsonObject): string | null {
  if (read.state === "ok" && jsonEqual(read.data, next)) return null;
  if (read.state === "missing" && Object.keys(next).length === 0) return null;
  return editJsonText(read.text, read.data, next);
}
