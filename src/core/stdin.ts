import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { DIRECT_MAX_BYTES, MAX_STORED_BYTES, PayloadCollector } from "./payload-text.ts";
import { openRegularFile } from "./regular-file.ts";

/** Spec 0.4: how long a hook waits for a harness that never writes or never closes stdin. */
export const FIRST_BYTE_MS = 500;
export const TOTAL_MS = 5_000;
/**
 * A quiet gap after which bytes that already form one JSON object are taken as the whole payload:
 * Antigravity's runner is reported never to close stdin (harness-protocols 4.3 and 6.4,
 * rullerzhou-afk/clawd-on-desk#568), which would otherwise cost every event the 5 s bound and lose it.
 */
export const IDLE_MS = 75;

export type StdinRead =
  /** `whole`: nothing of it was dropped by the bounds of payload-text.ts. */
  | { kind: "text"; text: string; whole: boolean }
  | { kind: "none"; reason: "tty" | "closed" | "empty" | "no-data" | "timeout" | "too-large" | "error" };

export type PayloadRead =
  | { kind: "payload"; payload: Record<string, unknown>; whole: boolean }
  | { kind: "none"; reason: string };

export type StdinLimits = {
  firstByteMs: number;
  totalMs: number;
  /** Opt-in: accept a complete JSON object once no byte has arrived for this long (no EOF needed). */
  idleMs?: number;
};

type StdinKind = "terminal" | "file" | "fifo" | "other";

function stdinKind(): StdinKind | null {
  try {
    const stat = fstatSync(0);
    if (stat.isCharacterDevice()) return "terminal";
    if (stat.isFile()) return "file";
    return stat.isFIFO() ? "fifo" : "other";
  } catch {
    return null;
  }
}

type Timer = ReturnType<typeof setTimeout>;

/** Cheap shape test first, so an idle pause in the middle of a large payload costs no parse. */
function isWholeObject(text: string | null): boolean {
  if (text === null) return false;
  const trimmed = text.trim();
  return trimmed.startsWith("{") && trimmed.endsWith("}") && parsePayload(trimmed).kind === "payload";
}

const READ_CHUNK_BYTES = 64 * 1024;

/**
 * Reads without waiting what is already there, which for a hook is usually the whole payload and its EOF:
 * a regular file is read as it is (a file read never blocks), and on Linux a pipe is reopened through
 * /proc/self/fd/0, which gives this process its own non-blocking file description of it. "eof" means the
 * payload is complete, "more" that the writer has not closed yet (the stream takes over), "timeout" that the
 * bytes kept coming past TOTAL_MS, null that this stdin cannot be read this way (a socket, as Node gives its
 * children, or another OS).
 */
function readWithoutWaiting(kind: StdinKind, collected: PayloadCollector, deadlineAt: number): "eof" | "more" | "timeout" | null {
  if (kind !== "file" && !(kind === "fifo" && process.platform === "linux")) return null;
  let fd: number;
  try {
    fd = kind === "file" ? 0 : openSync("/proc/self/fd/0", constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    // One buffer for every read: what is drained past the bound must cost no memory (a fresh buffer per read is
    // garbage the collector does not reclaim within this loop: `yes | aioson hooks:emit` reached 2.4 GB).
    const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    for (;;) {
      const read = readSync(fd, buffer, 0, buffer.byteLength, null);
      if (read === 0) return "eof";
      collected.add(buffer.subarray(0, read), true);
      if (Date.now() >= deadlineAt) return "timeout";
    }
  } catch (error) {
    // EAGAIN: the pipe is empty but still open.
    return (error as { code?: unknown } | null)?.code === "EAGAIN" ? "more" : null;
  } finally {
    if (fd !== 0) closeSync(fd);
  }
}

type StreamEnd = "eof" | "idle" | "timeout" | "no-data";

/** Past the direct bound, every this many bytes read from the stream are followed by a collection (see reclaim). */
const RECLAIM_EVERY_BYTES = 2 * 1024 * 1024;
let reclaimedAt = 0;

/**
 * Each stream chunk is a fresh buffer, and a writer that never stops (`yes | aioson hooks:emit`) produces them far
 * faster than the collector reclaims them on its own: a synchronous collection every few MiB keeps the peak within
 * the issue-11 bound. A usual payload never reaches it.
 */
function reclaim(collected: PayloadCollector): void {
  if (collected.seen - reclaimedAt < RECLAIM_EVERY_BYTES) return;
  reclaimedAt = collected.seen;
  Bun.gc(true);
}

/**
 * The harness is still writing: reads the stream until EOF, the deadline, or (with idleMs) a quiet whole object.
 * The bounds are timers that cancel the reader (which ends the pending read), not promises raced against every
 * read: a race leaves a reaction on a promise that never settles, one per chunk, and a writer that never stops
 * (`yes | aioson hooks:emit`) grew that to gigabytes within the 5 s bound.
 */
async function readStream(collected: PayloadCollector, limits: StdinLimits, started: number): Promise<StreamEnd> {
  const reader = Bun.stdin.stream().getReader();
  let end: StreamEnd | null = null;
  const stop = (why: StreamEnd): void => {
    if (end !== null) return;
    end = why;
    reader.cancel().catch(() => undefined);
  };
  let sawBytes = collected.seen > 0;
  const untilTotal = (): number => Math.max(0, limits.totalMs - (Date.now() - started));
  let totalTimer: Timer = sawBytes ? setTimeout(() => stop("timeout"), untilTotal()) : setTimeout(() => stop("no-data"), limits.firstByteMs);
  let idleTimer: Timer | undefined;
  const onIdle = (): void => {
    if (collected.stored > 0 && isWholeObject(collected.text())) stop("idle");
  };
  const armIdle = (): void => {
    if (limits.idleMs === undefined) return;
    clearTimeout(idleTimer);
    idleTimer = setTimeout(onIdle, limits.idleMs);
  };
  if (sawBytes) armIdle();
  try {
    for (;;) {
      const next = await reader.read();
      if (end !== null) return end;
      if (next.done) return "eof";
      if (!sawBytes) {
        sawBytes = true;
        clearTimeout(totalTimer);
        totalTimer = setTimeout(() => stop("timeout"), untilTotal());
      }
      collected.add(next.value);
      reclaim(collected);
      armIdle();
    }
  } finally {
    clearTimeout(totalTimer);
    clearTimeout(idleTimer);
    if (end === null) reader.cancel().catch(() => undefined);
  }
}

/**
 * Reads stdin as UTF-8 without ever hanging the agent: nothing within FIRST_BYTE_MS or no EOF
 * within TOTAL_MS means "no payload"; bytes past MAX_STORED_BYTES are drained but not kept. With
 * `idleMs`, a complete JSON object followed by that much silence is accepted without EOF.
 */
export async function readStdinText(limits: StdinLimits = { firstByteMs: FIRST_BYTE_MS, totalMs: TOTAL_MS }): Promise<StdinRead> {
  const kind = stdinKind();
  if (kind === null) return { kind: "none", reason: "closed" };
  if (kind === "terminal") return { kind: "none", reason: "tty" };
  const collected = new PayloadCollector();
  const started = Date.now();
  try {
    const early = readWithoutWaiting(kind, collected, started + limits.totalMs);
    if (early === "timeout") return { kind: "none", reason: "timeout" };
    if (early !== "eof") {
      const end = await readStream(collected, limits, started);
      if (end === "timeout" || end === "no-data") return { kind: "none", reason: end };
    }
  } catch {
    return { kind: "none", reason: "error" };
  }
  return collectedText(collected);
}

/**
 * The text of what was read. After a large payload the collection garbage (read chunks, the filter's buffer) is
 * reclaimed before anything else runs, so parsing and recording start from a small heap (issue 11's memory bound).
 */
function collectedText(collected: PayloadCollector): StdinRead {
  if (collected.seen === 0) return { kind: "none", reason: "empty" };
  const text = collected.text();
  const whole = collected.whole;
  if (collected.seen > DIRECT_MAX_BYTES) {
    collected.release();
    Bun.gc(true);
  }
  return text === null ? { kind: "none", reason: "too-large" } : { kind: "text", text, whole };
}

/**
 * A payload from a file (`context:guard --event-file`), with the same bounds as stdin: opened only when it is a
 * regular file (a FIFO, device such as /dev/zero, socket or folder is refused without blocking), no larger than
 * the spec's 16 MiB, kept within the payload bounds of payload-text.ts.
 */
export function readPayloadFile(path: string): StdinRead {
  const file = openRegularFile(path);
  if (file.kind !== "open") return { kind: "none", reason: "error" };
  try {
    if (file.size > MAX_STORED_BYTES) return { kind: "none", reason: "too-large" };
    const collected = new PayloadCollector();
    const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    for (let read = readSync(file.fd, buffer, 0, buffer.byteLength, null); read > 0; read = readSync(file.fd, buffer, 0, buffer.byteLength, null)) {
      collected.add(buffer.subarray(0, read), true);
      if (collected.tooLarge) return { kind: "none", reason: "too-large" };
    }
    return collectedText(collected);
  } catch {
    return { kind: "none", reason: "error" };
  } finally {
    closeSync(file.fd);
  }
}

/** Parses a hook payload: only a JSON object counts (spec 0.4 step 3). `whole`: as its read says. */
export function parsePayload(text: string, whole = true): PayloadRead {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: "none", reason: "invalid-json" };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { kind: "none", reason: "not-an-object" };
  }
  return { kind: "payload", payload: value as Record<string, unknown>, whole };
}

/** Stdin read and parsed; the reason says why there is no payload (for the hook log). */
export async function readHookPayload(options: { idleMs?: number } = {}): Promise<PayloadRead> {
  const read = await readStdinText({ firstByteMs: FIRST_BYTE_MS, totalMs: TOTAL_MS, ...options });
  if (read.kind === "none") return read;
  return parsePayload(read.text, read.whole);
}
