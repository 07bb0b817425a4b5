/**
 * Reads whose values cannot be larger than a bound (issue 25). A store is project content, and a crafted file can
 * hold a value far larger than itself: a row's record header says how many bytes the value has, and its chain of
 * overflow pages may loop on one page, which SQLite follows without noticing (a 2 MB file holds a 120 MB text, up to
 * SQLite's 1e9-byte limit). bun:sqlite has no sqlite3_limit to lower that limit, and `substr()` and `length()` of a
 * text make SQLite read the whole value first (147 MB for a 120 MB one); `octet_length()` reads the header only
 * (27 MB). So a read that returns free text asks for it only when the header says it is small.
 *
 * `octet_length()` is SQLite 3.43; on macOS bun:sqlite uses the system's SQLite, 3.39 before macOS 14.2, where the
 * bound is `length()`: it bounds what JavaScript receives, not what SQLite reads. A value that is too long reads as
 * NULL: nothing aioson writes comes near the bounds, so only a crafted or foreign row loses its value.
 */
import type { Database } from "bun:sqlite";

/** The SQL function that gives a value's size from its header (see above). */
export const SIZE_OF = process.platform === "darwin" ? "length" : "octet_length";

/** A text column's bound: aioson's own are at most a few KiB (a title 500 characters, a path 4,096, a message 1,100). */
export const TEXT_READ_MAX = 16 * 1024;
/** A JSON column's bound (hooks:emit's payloads are a few hundred bytes; the dashboard parses up to this). */
export const JSON_READ_MAX = 64 * 1024;

/** `column` when it holds at most `maxBytes`, else NULL, without reading a longer value. */
export function within(column: string, maxBytes: number): string {
  return `CASE WHEN ${SIZE_OF}(${column}) <= ${maxBytes} THEN ${column} END`;
}

function quotedName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * What `SELECT <alias>*` reads, each column within its bound: the store's own list of `table`'s columns (one of
 * AIOSON's other tools may have added some), `_json` columns within JSON_READ_MAX, the others within TEXT_READ_MAX.
 * Each keeps its name, which an ORDER BY then reads as the bounded value: a statement orders by the table's column
 * (`table.column`), or no index serves it.
 */
export function boundedColumns(db: Database, table: string, alias = ""): string {
  const names = db.query("SELECT name FROM pragma_table_info(?)").values(table) as Array<[unknown]>;
  return names
    .map(([name]) => String(name))
    .map((name) => `${within(`${alias}${quotedName(name)}`, name.toLowerCase().endsWith("_json") ? JSON_READ_MAX : TEXT_READ_MAX)} AS ${quotedName(name)}`)
    .join(", ");
}
