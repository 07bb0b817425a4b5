/**
 * One OTLP/HTTP request and what its answer means (OTLP specification, "OTLP/HTTP Response"): 2xx is delivered
 * (with a possible partial success), 429/502/503/504 and network failures are worth retrying (honouring
 * `Retry-After`), 413 asks for a smaller batch, 400 means the collector will never take this data, anything else
 * (a redirect, 401, 403, 404, 500...) stops the export until the next attempt. Every request is bounded: its
 * timeout covers the answer's body too, of which at most RESPONSE_MAX_BYTES are read. Redirects are not followed,
 * so headers never reach a host the user did not name.
 */
import { gzipSync } from "node:zlib";
import type { SignalTarget } from "./config.ts";

export type SendResult =
  /** `answer`: the first bytes of the body, where a partial success would be. */
  | { kind: "delivered"; answer: Uint8Array }
  /** `afterMs`: the server's Retry-After, when it sent one. */
  | { kind: "retry"; afterMs: number | null; reason: string }
  | { kind: "too_large"; reason: string }
  | { kind: "rejected"; reason: string }
  | { kind: "failed"; reason: string };

const RESPONSE_MAX_BYTES = 64 * 1024;
const RETRYABLE: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** `Retry-After`: seconds or an HTTP date, as a delay from `now` in ms; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isFinite(date) ? Math.max(0, date - now) : null;
}

/** The first RESPONSE_MAX_BYTES of a body; the rest is never read. */
async function boundedBody(response: Response): Promise<Uint8Array> {
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < RESPONSE_MAX_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } finally {
    void reader.cancel().catch(() => undefined);
  }
  const body = new Uint8Array(Math.min(size, RESPONSE_MAX_BYTES));
  let at = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, body.length - at);
    body.set(part, at);
    at += part.length;
    if (at >= body.length) break;
  }
  return body;
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.name === "TimeoutError" || error.name === "AbortError" ? "timed out" : error.message;
  return String(error);
}

/** A short, printable description of what the collector said (its text is not trusted either). */
function statusReason(status: number, body: Uint8Array): string {
  const text = new TextDecoder().decode(body.subarray(0, 200)).replace(/[^\x20-\x7e]+/g, " ").trim();
  return `HTTP ${status}${text ? `: ${text}` : ""}`;
}

export async function sendOtlp(target: SignalTarget, body: Uint8Array, now: () => number = Date.now): Promise<SendResult> {
  const gzip = target.compression === "gzip";
  const headers: Record<string, string> = {
    ...target.headers,
    "content-type": target.protocol === "http/json" ? "application/json" : "application/x-protobuf",
    ...(gzip ? { "content-encoding": "gzip" } : {}),
  };
  const signalTimeout = AbortSignal.timeout(target.timeoutMs);
  let response: Response;
  let answer: Uint8Array;
  try {
    response = await fetch(target.url, { method: "POST", headers, body: gzip ? gzipSync(body) : body, redirect: "manual", signal: signalTimeout });
    answer = await boundedBody(response);
  } catch (error) {
    return { kind: "retry", afterMs: null, reason: errorText(error) };
  }
  const status = response.status;
  if (status >= 200 && status < 300) return { kind: "delivered", answer };
  const reason = statusReason(status, answer);
  if (RETRYABLE.has(status)) return { kind: "retry", afterMs: retryAfterMs(response.headers.get("retry-after"), now()), reason };
  if (status === 413) return { kind: "too_large", reason };
  if (status === 400) return { kind: "rejected", reason };
  return { kind: "failed", reason: status >= 300 && status < 400 ? `${reason} (redirects are not followed)` : reason };
}
