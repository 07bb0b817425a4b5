/**
 * Opens a SQLite file for the tests and the benchmarks with the busy timeout the product's own handles set first
 * (src/store/db.ts BUSY_TIMEOUT_MS). A session's close starts the detached `runtime:prune --auto`, whose first open
 * of the store may hold the WAL's recovery lock for a moment: a handle without a busy timeout fails at once
 * ("database is locked") where every aioson reader waits.
 */
import { Database } from "bun:sqlite";
import { BUSY_TIMEOUT_MS } from "../src/store/db.ts";

export type OpenDbOptions = { readonly?: boolean; create?: boolean; readwrite?: boolean };

export function openDbFile(path: string, options?: OpenDbOptions): Database {
  const db = options === undefined ? new Database(path) : new Database(path, options);
  try {
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}
