import { fstatSync } from "node:fs";

/** Spec 0.4: how long a hook waits for a harness that never writes or never closes stdin. */
export const FIRST_BYTE_MS = 500;
export const TOTAL_MS = 5_000;
export const MAX_STORED_BYTES = 16 * 1024 * 1024;

export type StdinRead =
  | { kind: "text"; text: string }
  | { kind: "none"; reason: "tty" | "closed" | "empty" | "no-data" | "timeout" | "error" };

export type PayloadRead =
  | { kind: "payload"; payload: Record<string, unknown> }
  | { kind: "none"; reason: string };

function stdinIsTerminal(): boolean | null {
  try {
    return fstatSync(0).isCharacterDevice();
  } catch {
    return null;
  }
}

type Timer = ReturnType<typeof setTimeout>;

/**
 * Reads stdin as UTF-8 without ever hanging the agent: nothing within FIRST_BYTE_MS or no EOF
 * within TOTAL_MS means "no payload"; bytes past MAX_STORED_BYTES are drained but not kept.
 */
export async function readStdinText(limits = { firstByteMs: FIRST_BYTE_MS, totalMs: TOTAL_MS }): Promise<StdinRead> {
  const terminal = stdinIsTerminal();
  if (terminal === null) return { kind: "none", reason: "closed" };
  if (terminal) return { kind: "none", reason: "tty" };

  const reader = Bun.stdin.stream().getReader();
  const chunks: Uint8Array[] = [];
  let stored = 0;
  let timer: Timer | undefined;
  const deadline = (ms: number) =>
    new Promise<"timeout">((settle) => {
      timer = setTimeout(() => settle("timeout"), ms);
    });
  const started = Date.now();
  try {
    let wait = deadline(limits.firstByteMs);
    let sawBytes = false;
    for (;;) {
      const next = await Promise.race([reader.read(), wait]);
      if (next === "timeout") return { kind: "none", reason: sawBytes ? "timeout" : "no-data" };
      if (next.done) break;
      if (!sawBytes) {
        sawBytes = true;
        clearTimeout(timer);
        wait = deadline(Math.max(0, limits.totalMs - (Date.now() - started)));
      }
      if (stored < MAX_STORED_BYTES) {
        const room = MAX_STORED_BYTES - stored;
        const chunk = next.value.byteLength > room ? next.value.subarray(0, room) : next.value;
        chunks.push(chunk);
        stored += chunk.byteLength;
      }
    }
  } catch {
    return { kind: "none", reason: "error" };
  } finally {
    clearTimeout(timer);
    reader.cancel().catch(() => undefined);
  }
  if (stored === 0) return { kind: "none", reason: "empty" };
  return { kind: "text", text: new TextDecoder().decode(Buffer.concat(chunks, stored)) };
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
export async function readHookPayload(): Promise<PayloadRead> {
  const read = await readStdinText();
  if (read.kind === "none") return read;
  return parsePayload(read.text);
}
