/**
 * Read-only connections to project stores. A project is untrusted (docs/security.md), so a store is opened the way
 * every command opens one (store/db.ts openStore): only when its path has no symlink below the project root and its
 * files are regular files (a FIFO there would block the open), and once its schema is one aioson's statements may run
 * on (store/verify.ts: no view, trigger, generated column or expression index of its own on aioson's tables). The
 * connection can never write (read-only open, `query_only`), and the tables read are there. Nothing here ever writes
 * or checkpoints a store.
 */
import type { Database } from "bun:sqlite";
import { closeStore, openStore } from "../store/db.ts";

/** A reader never waits long for a writer: the page asks again on the next change. */
const BUSY_MS = 1_000;
/** Page cache per connection, KiB (SQLite's default is 2 MiB). */
const CACHE_KIB = 2_048;
const TABLES = ["execution_events", "agent_runs", "tasks"] as const;

export class StoreProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StoreProblem";
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Opens `<root>/.aioson/runtime/aios.sqlite` read-only; null when there is no store; StoreProblem when unsafe. */
export function openReadOnly(root: string): Database | null {
  let store: ReturnType<typeof openStore>;
  try {
    store = openStore(root, { mustExist: true, readonly: true, maxWaitMs: BUSY_MS });
  } catch (error) {
    throw new StoreProblem(messageOf(error));
  }
  if (!store) return null;
  const { db } = store;
  try {
    db.exec("PRAGMA query_only = ON");
    db.exec(`PRAGMA cache_size = -${CACHE_KIB}`);
    const kinds = db.query(`SELECT name, type FROM sqlite_master WHERE name IN (${TABLES.map(() => "?").join(", ")})`).all(...TABLES) as Array<{ name: string; type: string }>;
    for (const table of TABLES) {
      if (kinds.find((row) => row.name === table)?.type !== "table") throw new StoreProblem(`the store has no ${table} table`);
    }
    return db;
  } catch (error) {
    closeStore(store);
    throw error instanceof StoreProblem ? error : new StoreProblem(messageOf(error));
  }
}

type Pooled = { db: Database; usedAt: number; serial: number };

/**
 * Connections kept open between requests (opening one costs a schema parse), at most `max`, the least recently used
 * closed first, and each closed after `idleMs` unused, so the dashboard never holds a project's files for long.
 */
export class StorePool {
  readonly #open = new Map<string, Pooled>();
  #serial = 0;

  constructor(
    readonly max = 16,
    readonly idleMs = 60_000,
  ) {}

  /** The store of `root`, or null when it has none; StoreProblem when it cannot be read safely. */
  get(root: string): Database | null {
    const known = this.#open.get(root);
    if (known) {
      known.usedAt = Date.now();
      return known.db;
    }
    const db = openReadOnly(root);
    if (!db) return null;
    this.#open.set(root, { db, usedAt: Date.now(), serial: ++this.#serial });
    this.#trim();
    return db;
  }

  /**
   * A value that changes whenever anything was committed to the store of `root` since it was last asked (SQLite's
   * `data_version` of the pooled connection, with the connection's serial: a reopened one starts over); null when
   * the store is not open.
   */
  version(root: string): string | null {
    const pooled = this.#open.get(root);
    if (!pooled) return null;
    const { data_version } = pooled.db.query("PRAGMA data_version").get() as { data_version: number };
    return `${pooled.serial}:${data_version}`;
  }

  /** Closes the connection of `root` (its store was replaced or broke). */
  drop(root: string): void {
    this.#open.get(root)?.db.close();
    this.#open.delete(root);
  }

  sweep(now = Date.now()): void {
    for (const [root, pooled] of this.#open) if (now - pooled.usedAt > this.idleMs) this.drop(root);
  }

  #trim(): void {
    while (this.#open.size > this.max) {
      let oldest: string | null = null;
      let at = Number.POSITIVE_INFINITY;
      for (const [root, pooled] of this.#open) {
        if (pooled.usedAt < at) {
          at = pooled.usedAt;
          oldest = root;
        }
      }
      if (oldest === null) return;
      this.drop(oldest);
    }
  }

  closeAll(): void {
    for (const root of [...this.#open.keys()]) this.drop(root);
  }
}
