import { Database, constants } from "bun:sqlite";
import { existsSync, mkdirSync } from "node:fs";
import { ADDED_COLUMNS, LATE_INDEXES_SQL, SCHEMA_SQL, SCHEMA_VERSION } from "./schema.ts";
import { dbPath, runtimeDir } from "./paths.ts";

export type Store = {
  db: Database;
  path: string;
  root: string;
  /** Every busy wait of this handle (busy timeout and retries together) gives up after this long. */
  maxWaitMs: number;
};

export const BUSY_TIMEOUT_MS = 5_000;
/** Past a checkpoint the kept WAL file is cut back to this size. */
const WAL_SIZE_LIMIT_BYTES = 1024 * 1024;

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"));
}

/**
 * Runs `work`, retrying on SQLITE_BUSY until the absolute `deadline` (ms since epoch): switching a fresh
 * file to WAL and the first schema write can report busy without consulting the busy handler when many
 * processes start on a cold store. A store locked for good therefore costs a bounded wait, never a
 * multiple of the busy timeout.
 */
export function withBusyRetry<T>(work: () => T, deadline: number): T {
  for (;;) {
    try {
      return work();
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error;
      Bun.sleepSync(5 + Math.floor(Math.random() * 20));
    }
  }
}

function schemaVersion(db: Database): number {
  return (db.query("PRAGMA user_version").get() as { user_version: number }).user_version;
}

function migrateLocked(db: Database): void {
  db.transaction(() => {
    const current = schemaVersion(db);
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

function migrate(db: Database, deadline: number): void {
  // An up-to-date store needs no write lock: a writer holding it must not delay every open.
  if (withBusyRetry(() => schemaVersion(db), deadline) === SCHEMA_VERSION) return;
  withBusyRetry(() => migrateLocked(db), deadline);
}

/**
 * Every command is a short-lived process, usually a hook on the agent's critical path:
 * - synchronous=NORMAL: in WAL mode a commit no longer fsyncs; the store cannot be corrupted by a crash
 *   (an OS crash may drop the newest events; the checkpoint at close syncs them in the common case);
 * - a persistent WAL: the `-wal`/`-shm` files are kept between processes instead of being created,
 *   directory-synced and unlinked by every hook call; journal_size_limit keeps the kept file small.
 */
function tuneForShortLivedWriters(db: Database): void {
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec(`PRAGMA journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  db.fileControl(constants.SQLITE_FCNTL_PERSIST_WAL, 1);
}

export type OpenOptions = {
  mustExist?: boolean;
  readonly?: boolean;
  /** Spec 2.8: a store still locked after this long is given up on (default BUSY_TIMEOUT_MS). */
  maxWaitMs?: number;
};

/**
 * Spec 2.2: opens `<root>/.aioson/runtime/aios.sqlite`. With `mustExist`, a missing store answers
 * null and nothing is created. busy_timeout is set before WAL so that the switch itself waits.
 */
export function openStore(root: string, options: OpenOptions = {}): Store | null {
  const path = dbPath(root);
  if (options.mustExist && !existsSync(path)) return null;
  if (!options.readonly) mkdirSync(runtimeDir(root), { recursive: true });
  const db = options.readonly ? new Database(path, { readonly: true }) : new Database(path, { create: true });
  const maxWaitMs = Math.min(options.maxWaitMs ?? BUSY_TIMEOUT_MS, BUSY_TIMEOUT_MS);
  const deadline = Date.now() + maxWaitMs;
  try {
    db.exec(`PRAGMA busy_timeout = ${maxWaitMs}`);
    if (!options.readonly) {
      withBusyRetry(() => db.exec("PRAGMA journal_mode = WAL"), deadline);
      tuneForShortLivedWriters(db);
      db.exec("PRAGMA foreign_keys = ON");
      migrate(db, deadline);
    }
  } catch (error) {
    db.close();
    throw error;
  }
  return { db, path, root, maxWaitMs };
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

/** Runs `work` in one BEGIN IMMEDIATE transaction, within the handle's wait budget. */
export function withStoreTransaction<T>(store: Store, work: () => T): T {
  return withBusyRetry(() => store.db.transaction(work).immediate(), Date.now() + store.maxWaitMs);
}
