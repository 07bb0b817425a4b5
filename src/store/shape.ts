/**
 * The schema aioson creates, and what `sqlite_master` holds in a store this build made. `freshShape` runs when the
 * binary is built: verify.ts imports it as a Bun macro (`with { type: "macro" }`), which inlines its result, so a
 * hook compares a store with constants instead of deriving them (its JavaScript runs once, before any JIT, where each
 * string operation counts).
 */
import { Database } from "bun:sqlite";
import { ADDED_COLUMNS, LATE_INDEXES_SQL, SCHEMA_SQL } from "./schema.ts";

/** The tables, their first indexes and the added columns (db.ts runs it inside the migration's transaction). */
export function createTables(db: Database): void {
  db.exec(SCHEMA_SQL);
  for (const { table, column, type } of ADDED_COLUMNS) {
    const columns = db.query(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>;
    if (!columns.some((c) => c.name === column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
  }
}

/**
 * `sqlite_master` as one text: its row count, then the text of every row, apart by a control character. A store with
 * the same count and the same text holds the same rows: with the separators the rows need counted, no text holds
 * one; and SQLite refuses a row whose type, name or table is not its text's. Rows without a text are the indexes of
 * PRIMARY KEY and UNIQUE constraints, which the tables' texts define. LISTING_SQL lists the rows in the order they were
 * written, as a store this build created holds them; SORTED_LISTING_SQL by name, at the cost of a sort: a store an
 * earlier version created and this one migrated holds the same rows in another order.
 */
export const LISTING_SQL = "SELECT count(*) || char(30) || group_concat(coalesce(sql, ''), char(30)) AS listing FROM sqlite_master";
export const SORTED_LISTING_SQL =
  "SELECT count(*) || char(30) || group_concat(coalesce(sql, ''), char(30)) AS listing FROM (SELECT sql FROM sqlite_master ORDER BY name)";

/** The one value of a listing statement (null for an empty schema). */
export function listing(db: Database, sql: string): unknown {
  return (db.query(sql).get() as { listing: unknown } | null)?.listing ?? null;
}

export type Shape = {
  /** LISTING_SQL's value on a store this build created. */
  listing: string;
  /** SORTED_LISTING_SQL's. */
  sorted: string;
  /** The text of each table of such a store, by name (`sqlite_sequence` included). */
  tables: Record<string, string>;
  /** The text of each index this build creates, by name, as `sqlite_master` holds it. */
  indexes: Record<string, string>;
};

/** The shape of a store this build creates: the statements of db.ts's migration of an empty store, in memory. */
export function freshShape(): Shape {
  const db = new Database(":memory:");
  try {
    createTables(db);
    db.exec(LATE_INDEXES_SQL);
    const texts = (type: string): Record<string, string> =>
      Object.fromEntries(db.query("SELECT name, sql FROM sqlite_master WHERE type = ? AND sql IS NOT NULL ORDER BY name").values(type).map((row) => [String(row[0]), String(row[1])]));
    return { listing: String(listing(db, LISTING_SQL)), sorted: String(listing(db, SORTED_LISTING_SQL)), tables: texts("table"), indexes: texts("index") };
  } finally {
    db.close();
  }
}
