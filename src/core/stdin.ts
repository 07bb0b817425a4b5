import { fstatSync } from "node:fs";

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

function stdinIsTerminal(): boolean | null {
  try {
    return fstatSync(0).isCharacterDevice();
  } catch {
    return null;
  }
}

type Timer = ReturnType<typeof setTimeout>;

/** Cheap shape test first, so an idle pause in the middle of a large payload costs no parse. */
function isWholeObject(text: string): boolean {
  const trimmed = text.trim();
  return trimmed.startsWith("{") && trimmed.endsWith("}") && parsePayload(trimmed).kind === "payload";
}

/**
 * Reads stdin as UTF-8 without ever hanging the agent: nothing within FIRST_BYTE_MS or no EOF
 * within TOTAL_MS means "no payload"; bytes past MAX_STORED_BYTES are drained but not kept. With
 * `idleMs`, a complete JSON object followed by that much silence is accepted without EOF.
 */
export async function readStdinText(limits: StdinLimits = { firstByteMs: FIRST_BYTE_MS, totalMs: TOTAL_MS }): Promise<StdinRead> {
  const terminal = stdinIsTerminal();
  if (terminal === null) return { kind: "none", reason: "closed" };
  if (terminal) return { kind: "none", reason: "tty" };

  const reader = Bun.stdin.stream().getReader();
  const chunks: Uint8Array[] = [];
  let stored = 0;
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
  const text = () => new TextDecoder().decode(Buffer.concat(chunks, stored));
  const started = Date.now();
  try {
    let wait = deadline(limits.firstByteMs);
    let idle: Promise<"idle"> | null = null;
    let sawBytes = false;
    // One outstanding read at a time: an idle wake-up must not start a second read.
    let pending = reader.read();
    for (;;) {
      const next = await Promise.race(idle ? [pending, wait, idle] : [pending, wait]);
      if (next === "timeout") return { kind: "none", reason: sawBytes ? "timeout" : "no-data" };
      if (next === "idle") {
        if (stored > 0 && stored < MAX_STORED_BYTES && isWholeObject(text())) break;
        idle = null;
        continue;
      }
      if (next.done) break;
      if (!sawBytes) {
        sawBytes = true;
        clearTimeout(totalTimer);
        wait = deadline(Math.max(0, limits.totalMs - (Date.now() - started)));
      }
      if (stored < MAX_STORED_BYTES) {
        const room = MAX_STORED_BYTES - stored;
        const chunk = next.value.byteLength > room ? next.value.subarray(0, room) : next.value;
        chunks.push(chunk);
        stored += chunk.byteLength;
      }
      if (limits.idleMs !== undefined) {
        clearTimeout(idleTimer);
        idle = quiet(limits.idleMs);
      }
      pending = reader.read();
    }
  } catch {
    return { kind: "none", reason: "error" };
  } finally {
    clearTimeout(totalTimer);
    clearTimeout(idleTimer);
    reader.cancel().catch(() => undefined);
  }
  if (stored === 0) return { kind: "none", reason: "empty" };
  return { kind: "text", text: text() };
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
