import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

/** Spec 0.4: how long a hook waits for a harness that never writes or never closes stdin. */
export const FIRST_BYTE_MS = 500;
export const TOTAL_MS = 5_000;
export const MAX_STORED_BYTES = 16 * 1024 * 1024;
/**
 * A quiet gap after which bytes that already form one JSON object are taken as the whole payload:
 * Antigravity's runner is reported never to close stdin (harness-protocols 4.3 and 6.4,
 * rullerzhou-afk/clawd-on-desk#568), which would otherwise cost every event the 5 s bound and lose it.
 */
export const IDLE_MS = 75;

export type StdinRead =
  | { kind: "text"; text: string }
  | { kind: "none"; reason: "tty" | "closed" | "empty" | "no-data" | "timeout" | "error" };

export type PayloadRead =
  | { kind: "payload"; payload: Record<string, unknown> }
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

/** The bytes read so far: at most MAX_STORED_BYTES are kept, the rest is drained and dropped. */
type Collected = { chunks: Uint8Array[]; stored: number };

function keep(collected: Collected, bytes: Uint8Array): void {
  const room = MAX_STORED_BYTES - collected.stored;
  if (room <= 0 || bytes.byteLength === 0) return;
  const chunk = bytes.byteLength > room ? bytes.subarray(0, room) : bytes;
  collected.chunks.push(chunk);
  collected.stored += chunk.byteLength;
}

function decode(collected: Collected): string {
  const { chunks, stored } = collected;
  return new TextDecoder().decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, stored));
}

/** Cheap shape test first, so an idle pause in the middle of a large payload costs no parse. */
function isWholeObject(text: string): boolean {
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
function readWithoutWaiting(kind: StdinKind, collected: Collected, deadlineAt: number): "eof" | "more" | "timeout" | null {
  if (kind !== "file" && !(kind === "fifo" && process.platform === "linux")) return null;
  let fd: number;
  try {
    fd = kind === "file" ? 0 : openSync("/proc/self/fd/0", constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    for (;;) {
      const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
      const read = readSync(fd, buffer, 0, buffer.byteLength, null);
      if (read === 0) return "eof";
      keep(collected, buffer.subarray(0, read));
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

/** The harness is still writing: reads the stream until EOF, the deadline, or (with idleMs) a quiet whole object. */
async function readStream(collected: Collected, limits: StdinLimits, started: number): Promise<StreamEnd> {
  const reader = Bun.stdin.stream().getReader();
  let totalTimer: Timer | undefined;
  let idleTimer: Timer | undefined;
  const deadline = (ms: number) =>
    new Promise<"timeout">((settle) => {
      totalTimer = setTimeout(() => settle("timeout"), ms);
    });
  const quiet = (ms: number) =>
    new Promise<"idle">((settle) => {
      idleTimer = setTimeout(() => settle("idle"), ms);
    });
  const untilTotal = () => deadline(Math.max(0, limits.totalMs - (Date.now() - started)));
  try {
    let sawBytes = collected.stored > 0;
    let wait = sawBytes ? untilTotal() : deadline(limits.firstByteMs);
    let idle: Promise<"idle"> | null = sawBytes && limits.idleMs !== undefined ? quiet(limits.idleMs) : null;
    // One outstanding read at a time: an idle wake-up must not start a second read.
    let pending = reader.read();
    for (;;) {
      const next = await Promise.race(idle ? [pending, wait, idle] : [pending, wait]);
      if (next === "timeout") return sawBytes ? "timeout" : "no-data";
      if (next === "idle") {
        if (collected.stored > 0 && collected.stored < MAX_STORED_BYTES && isWholeObject(decode(collected))) return "idle";
        idle = null;
        continue;
      }
      if (next.done) return "eof";
      if (!sawBytes) {
        sawBytes = true;
        clearTimeout(totalTimer);
        wait = untilTotal();
      }
      keep(collected, next.value);
      if (limits.idleMs !== undefined) {
        clearTimeout(idleTimer);
        idle = quiet(limits.idleMs);
      }
      pending = reader.read();
    }
  } finally {
    clearTimeout(totalTimer);
    clearTimeout(idleTimer);
    reader.cancel().catch(() => undefined);
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
  const collected: Collected = { chunks: [], stored: 0 };
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
  if (collected.stored === 0) return { kind: "none", reason: "empty" };
  return { kind: "text", text: decode(collected) };
}

/** Parses a hook payload: only a JSON object counts (spec 0.4 step 3). */
export function parsePayload(text: string): PayloadRead {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: "none", reason: "invalid-json" };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { kind: "none", reason: "not-an-object" };
  }
  return { kind: "payload", payload: value as Record<string, unknown> };
}

/** Stdin read and parsed; the reason says why there is no payload (for the hook log). */
export async function readHookPayload(options: { idleMs?: number } = {}): Promise<PayloadRead> {
  const read = await readStdinText({ firstByteMs: FIRST_BYTE_MS, totalMs: TOTAL_MS, ...options });
  if (read.kind === "none") return read;
  return parsePayload(read.text);
}
