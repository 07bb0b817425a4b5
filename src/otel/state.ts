/**
 * The export's state in the store (tables of src/store/schema.ts): one cursor per destination and signal, the
 * store's random id, and the lease that keeps exports of one project one at a time. The store belongs to the
 * project, so everything read back is checked like input: a value of the wrong shape counts as absent, and a
 * backoff that ends implausibly far away is ignored.
 */
import type { Database } from "bun:sqlite";
import { createHash, randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { MAX_RETRY_WAIT_MS, MAX_TIMEOUT_MS, type Signal } from "./config.ts";
import { MAX_BACKOFF_MS } from "./wait-file.ts";

export type Cursor = { lastEventId: number; failures: number; retryAt: number | null };

/**
 * An exporter renews its lease before every request, and a request plus the wait before the next one lasts at most
 * MAX_TIMEOUT_MS + MAX_RETRY_WAIT_MS: a live exporter never loses its lease, a killed one frees it this long after.
 */
export const LEASE_TTL_MS = MAX_TIMEOUT_MS + MAX_RETRY_WAIT_MS + 10_000;
const STORE_ID = /^[0-9a-f]{32}$/;

function safeInt(value: unknown, min: number, max: number): number | null {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= min && value <= max ? value : null;
}

/** A destination is kept as a hash of its URL: the store never holds an endpoint (which can carry a key). */
export function destinationKey(url: string): string {
  return createHash("sha256").update(url).digest("hex").slice(0, 32);
}

export function readCursor(db: Database, destination: string, signal: Signal, now: number): Cursor {
  const row = db.query("SELECT last_event_id, failures, retry_at FROM otel_export_cursors WHERE destination = ? AND signal = ?").get(destination, signal) as
    | { last_event_id: unknown; failures: unknown; retry_at: unknown }
    | null;
  if (!row) return { lastEventId: 0, failures: 0, retryAt: null };
  const retryAt = safeInt(row.retry_at, 0, Number.MAX_SAFE_INTEGER);
  return {
    lastEventId: safeInt(row.last_event_id, 0, Number.MAX_SAFE_INTEGER) ?? 0,
    failures: safeInt(row.failures, 0, 1_000) ?? 0,
    retryAt: retryAt !== null && retryAt - now <= MAX_BACKOFF_MS ? retryAt : null,
  };
}

function upsertCursor(db: Database, destination: string, signal: Signal, cursor: Cursor, at: string): void {
  db.query(
    `INSERT INTO otel_export_cursors (destination, signal, last_event_id, failures, retry_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (destination, signal) DO UPDATE SET last_event_id = excluded.last_event_id, failures = excluded.failures,
       retry_at = excluded.retry_at, updated_at = excluded.updated_at`,
  ).run(destination, signal, cursor.lastEventId, cursor.failures, cursor.retryAt, at);
}

/** Success: the cursor moves to the last event sent and the backoff is forgotten. */
export function saveProgress(db: Database, destination: string, signal: Signal, lastEventId: number, at: string): void {
  upsertCursor(db, destination, signal, { lastEventId, failures: 0, retryAt: null }, at);
}

/** Failure: the cursor stays; the next automatic export waits until `retryAt`. */
export function saveFailure(db: Database, destination: string, signal: Signal, cursor: Cursor, retryAt: number, at: string): void {
  upsertCursor(db, destination, signal, { lastEventId: cursor.lastEventId, failures: Math.min(cursor.failures + 1, 1_000), retryAt }, at);
}

/** The store's random id (created on first use): trace and span ids derive from it and the event ids. */
export function storeId(db: Database): string {
  const row = db.query("SELECT value FROM otel_export_state WHERE key = 'store_id'").get() as { value: unknown } | null;
  if (row && typeof row.value === "string" && STORE_ID.test(row.value)) return row.value;
  const id = randomBytes(16).toString("hex");
  db.query("INSERT INTO otel_export_state (key, value, expires_at) VALUES ('store_id', ?, NULL) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(id);
  return id;
}

/** The store id without creating it (a dry run writes nothing); null when the store has none yet. */
export function existingStoreId(db: Database): string | null {
  try {
    const row = db.query("SELECT value FROM otel_export_state WHERE key = 'store_id'").get() as { value: unknown } | null;
    return row && typeof row.value === "string" && STORE_ID.test(row.value) ? row.value : null;
  } catch {
    return null;
  }
}

/** An exporter's lease owner: `<host>/<pid>/<random>`, so a lease left by a killed exporter of this host is known dead. */
export function newLeaseOwner(): string {
  return `${hostname()}/${process.pid}/${randomBytes(8).toString("hex")}`;
}

/** False only for an owner on this host whose process is gone (SIGKILL, a crash): its lease is free at once. */
function ownerAlive(owner: string): boolean {
  const [host, pid] = owner.split("/");
  const id = Number(pid);
  if (host !== hostname() || !Number.isSafeInteger(id) || id <= 0) return true;
  try {
    process.kill(id, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === "EPERM";
  }
}

/** Whether another live exporter holds an unexpired lease (a read: an exporter with nothing to do writes nothing). */
export function leaseHeld(db: Database, owner: string, now: number): boolean {
  const row = db.query("SELECT value, expires_at FROM otel_export_state WHERE key = 'lease'").get() as { value: unknown; expires_at: unknown } | null;
  const expires = row ? safeInt(row.expires_at, 0, Number.MAX_SAFE_INTEGER) : null;
  // A lease that claims to last beyond any real export was not written by one: it does not count.
  return row !== null && typeof row.value === "string" && row.value !== owner && expires !== null && expires > now && expires - now <= LEASE_TTL_MS && ownerAlive(row.value);
}

/**
 * Takes (or renews) the lease for `owner` until `now + LEASE_TTL_MS`; false when another exporter holds an unexpired
 * one. Run inside a write transaction, so two exporters can never both win.
 */
export function takeLease(db: Database, owner: string, now: number): boolean {
  if (leaseHeld(db, owner, now)) return false;
  db.query("INSERT INTO otel_export_state (key, value, expires_at) VALUES ('lease', ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at").run(owner, now + LEASE_TTL_MS);
  return true;
}

export function releaseLease(db: Database, owner: string): void {
  db.query("DELETE FROM otel_export_state WHERE key = 'lease' AND value = ?").run(owner);
}
