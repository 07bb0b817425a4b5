/**
 * Reads a file that may not be what its name says: someone else's repository (or a broken dotfiles setup) can put a
 * FIFO, a device, a socket, a folder or a huge file where aioson expects a small config. The file is opened
 * non-blocking (opening a FIFO for reading would otherwise wait for a writer forever), checked on the open
 * descriptor to be a regular file within the bound, and only then read; never more than the bound is read, even
 * when the file grows meanwhile.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";

export type RegularFileRead =
  | { kind: "ok"; text: string }
  | { kind: "missing" }
  /** `what`: "a FIFO", "a folder", "a device", "a socket"… */
  | { kind: "not-regular"; what: string }
  | { kind: "too-large"; limit: number }
  | { kind: "error"; code: string };

export type RegularFileOptions = {
  /** Refuse a symlink as the file itself (O_NOFOLLOW; project paths). */
  noFollow?: boolean;
};

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "EIO";
}

function kindOf(stat: Stats): string {
  if (stat.isFIFO()) return "a FIFO";
  if (stat.isDirectory()) return "a folder";
  if (stat.isSocket()) return "a socket";
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return "a device";
  return "not a plain file";
}

export type RegularFileOpen =
  | { kind: "open"; fd: number; size: number }
  | Exclude<RegularFileRead, { kind: "ok" } | { kind: "too-large" }>;

/**
 * Opens `path` for reading only when it is a regular file (non-blocking, checked on the descriptor, as
 * readRegularFile does): for readers of a bounded tail or of chunks (transcripts, events.ndjson, an event file).
 * The caller closes the descriptor. A file whose mode grants nobody read access is refused with EACCES even when
 * the process could read it anyway (root): its owner said "do not read", and root and users then behave alike.
 */
export function openRegularFile(path: string, options: RegularFileOptions = {}): RegularFileOpen {
  const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (options.noFollow ? (constants.O_NOFOLLOW ?? 0) : 0);
  let fd: number;
  try {
    fd = openSync(path, flags);
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT") return { kind: "missing" };
    // A Unix socket cannot be opened at all.
    if (code === "ENXIO") return { kind: "not-regular", what: "a socket" };
    return { kind: "error", code };
  }
  let refused: RegularFileOpen;
  try {
    const stat = fstatSync(fd);
    if (stat.isFile() && (process.platform === "win32" || (stat.mode & 0o444) !== 0)) return { kind: "open", fd, size: stat.size };
    refused = stat.isFile() ? { kind: "error", code: "EACCES" } : { kind: "not-regular", what: kindOf(stat) };
  } catch (error) {
    refused = { kind: "error", code: errorCode(error) };
  }
  closeSync(fd);
  return refused;
}

/** `length` bytes of an open file from `position` (fewer when the file is shorter). */
export function readBytes(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  let read = 0;
  while (read < length) {
    const n = readSync(fd, buffer, read, length - read, position + read);
    if (n <= 0) break;
    read += n;
  }
  return buffer.subarray(0, read);
}

/** A regular file of at most `maxBytes`, as UTF-8 text (see openRegularFile for what is refused). */
export function readRegularFile(path: string, maxBytes: number, options: RegularFileOptions = {}): RegularFileRead {
  const opened = openRegularFile(path, options);
  if (opened.kind !== "open") return opened;
  try {
    return readOpenedFile(opened.fd, opened.size, maxBytes);
  } finally {
    closeSync(opened.fd);
  }
}

/**
 * The text of a file openRegularFile opened (`size` from its fstat), at most `maxBytes`: sized by fstat, grown if the
 * file grows while it is read, never past the bound. The caller closes the descriptor.
 */
export function readOpenedFile(fd: number, size: number, maxBytes: number): RegularFileRead {
  if (size > maxBytes) return { kind: "too-large", limit: maxBytes };
  try {
    // Unzeroed: only the bytes read are ever looked at (rules are read by the hundred, on every write).
    let buffer = Buffer.allocUnsafe(size + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > maxBytes) return { kind: "too-large", limit: maxBytes };
        const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
        buffer.copy(grown, 0, 0, length);
        buffer = grown;
      }
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n <= 0) break;
      length += n;
      // A regular file reads short only at its end: no second call to hear so (a hook reads its rules by the dozen).
      if (length < buffer.length) break;
    }
    if (length > maxBytes) return { kind: "too-large", limit: maxBytes };
    return { kind: "ok", text: buffer.toString("utf8", 0, length) };
  } catch (error) {
    return { kind: "error", code: errorCode(error) };
  }
}

/** A project path project-fs refused before reading it (a symlink on the way, outside the root); `why` says which. */
export type UnsafeRead = { kind: "unsafe"; why: string };

/** Why a read was refused, for a log line or an error message. */
export function refusalText(read: Exclude<RegularFileRead, { kind: "ok" }> | UnsafeRead): string {
  if (read.kind === "missing") return "missing";
  if (read.kind === "unsafe") return read.why;
  if (read.kind === "not-regular") return `${read.what}, not a file`;
  if (read.kind === "too-large") return `larger than ${read.limit} bytes`;
  return read.code;
}
