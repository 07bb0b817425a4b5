import { Database } from "bun:sqlite";
import { existsSync, mkdirSync } from "node:fs";
import { ADDED_COLUMNS, LATE_INDEXES_SQL, SCHEMA_SQL, SCHEMA_VERSION } from "./schema.ts";
import { dbPath, runtimeDir } from "./paths.ts";

export type Store = { db: Database; path: string; root: string };

export const BUSY_TIMEOUT_MS = 5_000;

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"));
}

/**
 * Runs `work`, retrying on SQLITE_BUSY: switching a fresh file to WAL and the first schema write can
 * report busy without consulting the busy handler when many processes start on a cold store. The
 * retries share one deadline with the busy timeout, so a store locked for good costs a hook at most
 * about BUSY_TIMEOUT_MS, never a multiple of it.
 */
export function withBusyRetry<T>(work: () => T, deadlineMs = BUSY_TIMEOUT_MS): T {
  const giveUpAt = Date.now() + deadlineMs;
  for (;;) {
    try {
      return work();
    } catch (error) {
      if (!isBusy(error) || Date.now() >= giveUpAt) throw error;
      Bun.sleepSync(5 + Math.floor(Math.random() * 20));
    }
  }
}

function userVersion(db: Database): number {
  return (db.query("PRAGMA user_version").get() as { user_version: number }).user_version;
}

function migrate(db: Database): void {
  // A current store needs no write lock: readers (hooks:recap) never wait behind a writer here.
  if (userVersion(db) === SCHEMA_VERSION) return;
  db.transaction(() => {
    const current = userVersion(db);
    if (current === SCHEMA_VERSION) return;
    db.exec(SCHEMA_SQL);
    for (const { table, column, type } of ADDED_COLUMNS) {
      const columns = db.query(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>;
      if (!columns.some((c) => c.name === column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
    }
    db.exec(LATE_INDEXES_SQL);
    if (current < SCHEMA_VERSION) db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}

export type OpenOptions = { mustExist?: boolean; readonly?: boolean };

/**
 * Spec 2.2: opens `<root>/.aioson/runtime/aios.sqlite`. With `mustExist`, a missing store answers
 * null and nothing is created. busy_timeout is set before WAL so that the switch itself waits.
 */
export function openStore(root: string, options: OpenOptions = {}): Store | null {
  const path = dbPath(root);
  if (options.mustExist && !existsSync(path)) return null;
  if (!options.readonly) mkdirSync(runtimeDir(root), { recursive: true });
  const db = options.readonly ? new Database(path, { readonly: true }) : new Database(path, { create: true });
  try {
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (!options.readonly) {
      withBusyRetry(() => db.exec("PRAGMA journal_mode = WAL"));
      db.exec("PRAGMA foreign_keys = ON");
      withBusyRetry(() => migrate(db));
    }
  } catch (error) {
    db.close();
    throw error;
  }
  return { db, path, root };
}

/** Closes the handle; on Windows the WAL is truncated first so `-wal`/`-shm` locks are released. */
export function closeStore(store: Store): void {
  try {
    if (process.platform === "win32") store.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  } catch {
    // A checkpoint is housekeeping; closing matters more.
  }
  store.db.close();
}

/** Opens, runs `work` in one BEGIN IMMEDIATE transaction, closes. */
export function withStoreTransaction<T>(store: Store, work: () => T): T {
  return withBusyRetry(() => store.db.transaction(work).immediate());
}
