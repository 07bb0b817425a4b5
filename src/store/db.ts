import { Database, constants } from "bun:sqlite";
import { lstatSync, mkdirSync, realpathSync } from "node:fs";
import { assertProjectFile, entryExists } from "../core/project-fs.ts";
import { ADDED_COLUMNS, LATE_INDEXES, LATE_INDEXES_SQL, SCHEMA_SQL, SCHEMA_VERSION } from "./schema.ts";
import { dbPath } from "./paths.ts";
import { ensureRuntimeDir } from "./runtime-dir.ts";
import { createTables } from "./shape.ts";
import { verifyStoreSchema } from "./verify.ts";

export type Store = {
  db: Database;
  /** The store as the command names it (`<root>/.aioson/runtime/aios.sqlite`). */
  path: string;
  /** The file SQLite opened: `path`, or the same file under the root's real path (a folder above it is a symlink). */
  file: string;
  root: string;
  readonly: boolean;
  /** Every busy wait of this handle (busy timeout and retries together) gives up after this long. */
  maxWaitMs: number;
};

export const BUSY_TIMEOUT_MS = 5_000;
/** Past a checkpoint the kept WAL file is cut back to this size. */
const WAL_SIZE_LIMIT_BYTES = 1024 * 1024;
/**
 * A writer's close leaves its frames in the WAL (see closeStore) until the WAL reaches this size, about a dozen
 * hook events: below it the next opens read the WAL back cheaply, at it one close pays the checkpoint.
 */
const WAL_CHECKPOINT_BYTES = 512 * 1024;

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

function isEmpty(db: Database): boolean {
  return (db.query("SELECT COUNT(*) AS n FROM sqlite_master").get() as { n: number }).n === 0;
}

/**
 * The tables and added columns, in one transaction; in a new store the indexes and the version too. The store's
 * version afterwards, and whether this call created it.
 */
function migrateTables(db: Database, lacking: boolean): { version: number; created: boolean } {
  return db.transaction(() => {
    const current = schemaVersion(db);
    // A newer aioson only ever adds to this schema.
    if (current >= SCHEMA_VERSION && !lacking) return { version: current, created: false };
    const fresh = isEmpty(db);
    createTables(db);
    if (!fresh) return { version: current, created: false };
    db.exec(LATE_INDEXES_SQL);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    return { version: SCHEMA_VERSION, created: true };
  }).immediate();
}

/**
 * A store this process created or migrated is entered in the user's projects registry (the dashboard's list). It
 * happens once per store and schema version, so the registry's code is loaded only then (a lazily required chunk),
 * never on a hook's hot path.
 */
function register(root: string): void {
  try {
    (require("./registry.ts") as typeof import("./registry.ts")).registerProject(root);
  } catch {
    // The registry is a convenience of the dashboard: a store is never refused over it.
  }
}

/**
 * An older store gains its missing indexes one transaction each, then the new version: building one over a
 * million events takes up to ~2 s, which the other hooks of the project wait for within their busy timeout, where
 * all of them at once would outlast it. An opener killed half-way leaves the indexes it built; the next one goes on.
 * True when this call set the new version.
 */
function migrateIndexes(db: Database, maxWaitMs: number, lacking = false): boolean {
  const step = <T>(work: () => T): T => withBusyRetry(() => db.transaction(work).immediate(), Date.now() + maxWaitMs);
  for (const statement of LATE_INDEXES) step(() => db.exec(statement));
  return step(() => {
    // A version another tool set higher is left as it is.
    if (schemaVersion(db) >= SCHEMA_VERSION) return lacking;
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    return true;
  });
}

/** `CREATE TABLE IF NOT EXISTS <name>` and `CREATE INDEX IF NOT EXISTS <name>` of a schema text: the names. */
function createdNames(sql: string, kind: "TABLE" | "INDEX"): string[] {
  return [...sql.matchAll(new RegExp(`CREATE ${kind} IF NOT EXISTS (\\w+)`, "g"))].map((match) => `'${match[1]}'`);
}

/**
 * Whether a store whose version says it is up to date lacks one of aioson's tables, added columns or indexes. The
 * store is shared with AIOSON's other tools (spec 2.3), which keep their own schema versions in the same
 * user_version: the Node AIOSON leaves a store at 4 without aioson's added columns, and every hook write then failed
 * ("no column named plan_step_id"). Asked only of a store that is not this build's exact shape (verify.ts).
 */
function lacksOwnSchema(db: Database): boolean {
  const tables = createdNames(SCHEMA_SQL, "TABLE");
  const indexes = createdNames(LATE_INDEXES.join("\n"), "INDEX");
  const byTable = new Map<string, string[]>();
  for (const { table, column } of ADDED_COLUMNS) byTable.set(table, [...(byTable.get(table) ?? []), `'${column}'`]);
  const columns = [...byTable].map(([table, names]) => `(SELECT COUNT(*) FROM pragma_table_info('${table}') WHERE name IN (${names.join(", ")}))`);
  const row = db
    .query(
      `SELECT (SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name IN (${tables.join(", ")}))
         + (SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND name IN (${indexes.join(", ")})) + ${columns.join(" + ")} AS n`,
    )
    .get() as { n: number };
  return row.n < tables.length + indexes.length + ADDED_COLUMNS.length;
}

function migrate(db: Database, root: string, deadline: number, maxWaitMs: number): void {
  const version = withBusyRetry(() => schemaVersion(db), deadline);
  // An up-to-date store needs no write lock: a writer holding it must not delay every open.
  const lacking = version >= SCHEMA_VERSION && withBusyRetry(() => lacksOwnSchema(db), deadline);
  if (version >= SCHEMA_VERSION && !lacking) return;
  const tables = withBusyRetry(() => migrateTables(db, lacking), deadline);
  if (tables.created || ((tables.version < SCHEMA_VERSION || lacking) && migrateIndexes(db, maxWaitMs, lacking))) register(root);
}

/**
 * Every command is a short-lived process, usually a hook on the agent's critical path:
 * - synchronous=NORMAL: in WAL mode a commit no longer fsyncs; the store cannot be corrupted by a crash
 *   (an OS crash or power loss may drop the events written since the last checkpoint, see closeStore);
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
 * SQLITE_OPEN_NOFOLLOW: SQLite refuses a symlink anywhere in the database path, and opens its `-wal`, `-shm` and
 * `-journal` files without following one either (SQLITE_CANTOPEN), so a project cannot point the store elsewhere.
 */
const READ_WRITE = constants.SQLITE_OPEN_READWRITE | constants.SQLITE_OPEN_CREATE | constants.SQLITE_OPEN_NOFOLLOW;
const READ_ONLY = constants.SQLITE_OPEN_READONLY | constants.SQLITE_OPEN_NOFOLLOW;
const SIDE_FILES = ["-wal", "-shm", "-journal"] as const;

/**
 * The store files as a project holds them: no symlink from the root down to `aios.sqlite`, and the database and
 * each of its side files, when present, a regular file with no other hard link (a FIFO would hang SQLite, a hard
 * link would let it write into another file). Checked before every open, for readers too: a committed symlink to
 * another project's store must not be read into a checkpoint. Windows has no O_NOFOLLOW, so this walk is its
 * whole check. Throws UnsafeProjectPathError; returns whether the database exists.
 */
function assertStoreFiles(root: string, file: string): boolean {
  const exists = assertProjectFile(root, file, "open");
  for (const suffix of SIDE_FILES) assertProjectFile(root, `${file}${suffix}`, "open");
  return exists;
}

/** The runtime folder (and its .gitignore); a user command's start folder that does not exist yet is made first. */
function ensureStoreDir(root: string): void {
  try {
    ensureRuntimeDir(root);
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code !== "ENOENT") throw error;
    mkdirSync(root, { recursive: true });
    ensureRuntimeDir(root);
  }
}

/**
 * Opens the database file. SQLITE_OPEN_NOFOLLOW refuses a symlink anywhere in the absolute path; the walk found
 * none from the root down, so one it still finds lies above the root (macOS /var, a symlinked home: the user's own
 * path, reached by a user command), and the root's real path has none. Hook roots are real paths already, so a hook
 * never pays the realpath.
 */
function openDatabase(root: string, readonly: boolean): { db: Database; file: string } {
  const flags = readonly ? READ_ONLY : READ_WRITE;
  const file = dbPath(root);
  try {
    return { db: new Database(file, flags), file };
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code !== "SQLITE_CANTOPEN_SYMLINK") throw error;
    const real = dbPath(realpathSync(root));
    return { db: new Database(real, flags), file: real };
  }
}

/**
 * Spec 2.2: opens `<root>/.aioson/runtime/aios.sqlite`. With `mustExist`, a missing store answers
 * null and nothing is created. busy_timeout is set before WAL so that the switch itself waits.
 * Throws UnsafeProjectPathError when the store's path or files are not aioson's own (see assertStoreFiles), and
 * UnsafeStoreError when its schema is not one aioson's statements may run on (verify.ts).
 */
export function openStore(root: string, options: OpenOptions = {}): Store | null {
  const path = dbPath(root);
  if (options.mustExist && !entryExists(path)) return null;
  const readonly = options.readonly === true;
  const exists = assertStoreFiles(root, path);
  if (!exists && options.mustExist) return null;
  if (!readonly) ensureStoreDir(root);
  const { db, file } = openDatabase(root, readonly);
  const maxWaitMs = Math.min(options.maxWaitMs ?? BUSY_TIMEOUT_MS, BUSY_TIMEOUT_MS);
  const deadline = Date.now() + maxWaitMs;
  try {
    db.exec(`PRAGMA busy_timeout = ${maxWaitMs}`);
    // The store is project content (verify.ts): no function its schema names may be one with side effects, and no
    // statement runs on it before its shape is checked.
    db.exec("PRAGMA trusted_schema = OFF");
    const current = withBusyRetry(() => verifyStoreSchema(db, path), deadline);
    if (!readonly) {
      // Only a new file can take it, and only before WAL; on an existing store the statement would write the header
      // (a commit per open). An older store keeps its mode (runtime:prune says how to switch it).
      if (!exists) db.exec("PRAGMA auto_vacuum = INCREMENTAL");
      withBusyRetry(() => db.exec("PRAGMA journal_mode = WAL"), deadline);
      tuneForShortLivedWriters(db);
      db.exec("PRAGMA foreign_keys = ON");
      // A store with exactly this build's schema has nothing to migrate, whatever its user_version says.
      if (!current) migrate(db, root, deadline, maxWaitMs);
    }
  } catch (error) {
    db.close();
    throw error;
  }
  return { db, path, file, root, readonly, maxWaitMs };
}

function walBytes(store: Store): number {
  try {
    return lstatSync(`${store.file}-wal`).size;
  } catch {
    return 0;
  }
}

/** Housekeeping that must never hold a hook: a store some other process is using is left for a later close. */
function checkpointIfFree(db: Database): void {
  try {
    db.exec("PRAGMA busy_timeout = 0");
    db.query("PRAGMA wal_checkpoint(TRUNCATE)").get();
  } catch {
    // A checkpoint is housekeeping; closing matters more.
  }
}

/** How long a session's close waits for readers of older snapshots before it checkpoints what it can. */
const CLOSE_CHECKPOINT_WAIT_MS = 1_000;

/**
 * Copies every committed frame of the WAL into the database file (a FULL checkpoint, synced), so that a copy of
 * `aios.sqlite` alone holds everything recorded so far. Called when a session closes, never per hook call: closeStore
 * leaves frames in the WAL on purpose. A reader of an older snapshot is waited for, within CLOSE_CHECKPOINT_WAIT_MS;
 * true when every frame was copied.
 */
export function checkpointStore(store: Store): boolean {
  const { db } = store;
  try {
    db.exec(`PRAGMA busy_timeout = ${Math.min(CLOSE_CHECKPOINT_WAIT_MS, store.maxWaitMs)}`);
    const row = db.query("PRAGMA wal_checkpoint(FULL)").get() as { busy: number; log: number; checkpointed: number };
    return row.busy === 0 && row.checkpointed === row.log;
  } catch {
    // Housekeeping: the next close tries again.
    return false;
  } finally {
    db.exec(`PRAGMA busy_timeout = ${store.maxWaitMs}`);
  }
}

/**
 * Opens a read-only connection beside `db` and reads through it, so that the file stays share-locked while
 * `db` closes; null when that fails (the close then checkpoints as usual).
 */
function openKeeper(path: string): Database | null {
  let keeper: Database | null = null;
  try {
    keeper = new Database(path, READ_ONLY);
    keeper.query("PRAGMA user_version").get();
    return keeper;
  } catch {
    keeper?.close();
    return null;
  }
}

/**
 * Closes the handle. When SQLite closes the last connection to a WAL database it checkpoints: an fsync of the WAL
 * and of the database at close, then one of the WAL header and its directory at the next commit — about 1 ms on
 * every hook call. A writer therefore closes while a read-only connection holds the file (SQLite checkpoints on
 * close only under an exclusive lock, and a read-only connection never checkpoints): the committed frames stay in
 * the WAL, just as if the process had been killed right after its commit, which SQLite is built to survive. The
 * next open reads the WAL back (about 3 µs a frame), so once it passes WAL_CHECKPOINT_BYTES the closing writer
 * checkpoints and truncates it instead.
 * Windows keeps the spec's TRUNCATE before close, which releases the `-wal`/`-shm` locks.
 */
export function closeStore(store: Store): void {
  const { db } = store;
  if (store.readonly) return db.close();
  if (process.platform === "win32" || walBytes(store) >= WAL_CHECKPOINT_BYTES) {
    checkpointIfFree(db);
    return db.close();
  }
  const keeper = openKeeper(store.file);
  db.close();
  keeper?.close();
}

/**
 * `db.transaction(work).immediate()` at the top level: BEGIN IMMEDIATE, then COMMIT, or ROLLBACK and
 * rethrow. Written out because bun:sqlite's wrapper prepares nine control statements on first use,
 * a noticeable share of a one-transaction hook process. Nested calls keep bun's savepoints.
 */
function immediateTransaction<T>(db: Database, work: () => T): T {
  if (db.inTransaction) return db.transaction(work).immediate();
  db.exec("BEGIN IMMEDIATE");
  try {
    const result = work();
    db.exec("COMMIT");
    return result;
  } catch (error) {
    if (db.inTransaction) db.exec("ROLLBACK");
    throw error;
  }
}

/** Runs `work` in one BEGIN IMMEDIATE transaction, within the handle's wait budget. */
export function withStoreTransaction<T>(store: Store, work: () => T): T {
  return withBusyRetry(() => immediateTransaction(store.db, work), Date.now() + store.maxWaitMs);
}
