/**
 * The shape check every open of a store runs before anything reads or writes it (issue 25). A store is project
 * content: a cloned repository may commit `.aioson/runtime/aios.sqlite`, and its schema is code SQLite runs on
 * aioson's reads and writes. A generated column (`message AS (printf('%.*c', 100000000, 'x'))`) computes 100 MB on
 * every read, a trigger or an index expression runs on every hook write, a view named `execution_events` turns each
 * read into its query, forged `sqlite_stat1` rows steer the planner into scans; `trusted_schema=OFF` stops none of
 * them, since the functions they call are SQLite's own innocuous ones.
 *
 * A store this build created is recognised whole (FRESH, one statement). Any other is checked row by row, and since
 * the store is shared with the rest of AIOSON (spec 2.3: unknown tables and columns are tolerated), only for what
 * aioson's statements can reach: aioson's tables (and `sqlite_sequence`, which every insert updates) are ordinary
 * tables with no CHECK constraint, no generated column, no computed default and a bounded text (their defaults are
 * copied into every row); no trigger fires on them; each index on them is one aioson writes, one an earlier build
 * wrote, or plain columns with at most a WHERE of comparisons with constants; no other table has a foreign key on them
 * (a cascade of runtime:prune would write into it and run its triggers); no statistics. Nothing else is ever read,
 * written or compiled by aioson. Column types and missing columns are not checked: an affinity cannot run code or grow
 * a value, and a missing column fails the statement that needs it.
 */
import type { Database } from "bun:sqlite";
import { LISTING_SQL, listing, SORTED_LISTING_SQL } from "./shape.ts";
import { freshShape } from "./shape.ts" with { type: "macro" };

/** A store whose shape is not one aioson's statements may run on; `why` says which part. */
export class UnsafeStoreError extends Error {
  readonly code = "unsafe_store";
  constructor(
    readonly path: string,
    readonly why: string,
  ) {
    super(
      `refused to open ${path}: ${why}. aioson (this version) did not make this store, and a repository can commit one: nothing was read from it or written to it. Move it away with its -wal and -shm files, then run \`aioson runtime:init\` to start a new one`,
    );
    this.name = "UnsafeStoreError";
  }
}

/**
 * SHA-256 of every index text with an expression or a WHERE clause that an aioson build created, as `sqlite_master`
 * holds it (`IF NOT EXISTS` dropped). `CREATE INDEX IF NOT EXISTS` never replaces an index, so a store keeps the text
 * of the build that made it: when a text of LATE_INDEXES changes, its new hash is added here and the old one stays
 * (test/security/hostile-store.test.ts fails until it is).
 */
export const INDEX_TEXTS_WRITTEN: ReadonlySet<string> = new Set([
  // Schema 4 (fb8e773): recap_steps (its first key), recap_plans, recap_notes, unsessioned, unsessioned_type, handoff, tokens.
  "ea589cb3b7f3bccfd7c5983b7dd5a6a907a1cfb805d00243dc83ea580b2b8f6f",
  "b9192d02660898715ca06b6bdffc099f81ae8a14a31654938de763e21e650324",
  "71207f04fd6571e9df2bd559b4d6d966645c1cc5f3153d07adcd0090cff14a5f",
  "0ea46ed53ec7e7140f707af5f8e1d554e2a2447770e9efed6a04d1e4e9d942d9",
  "4a366b09703086db52e2efe0abc95a7ff3aa6301a87a9653b86e9904a93be429",
  "db38fa05b2295b691b7b13b8f1a7c8cc0468b9a8e0898486f3e7e9202aca54dd",
  "4274c170df46cad32a283514b1c876cb71f485af2ff42e0785941e9722024ca1",
  // recap_steps under one key expression (f662989).
  "252ca6a0edd0098abf6546a38c47ec175070dfe359404f26841184d8d15b7c1f",
  // span_files (b887ae0).
  "e992fedd839f792cd03c9ec4c0e8f4ed4bcb3eb05f8eb47930293529cf9e2404",
  // recap_withheld (0d7042a).
  "67a2384d15b38ba152572eab07addf90bcc8286cbd571951a977101603d252ff",
]);

/** A store this build created (shape.ts), computed when the binary is built. */
const FRESH = freshShape();

export function sha256(text: string): string {
  return new Bun.CryptoHasher("sha256").update(text).digest("hex");
}

/** A name from the store as an error message shows it: a plain word as it is, anything else quoted and cut. */
function shown(name: string): string {
  return /^\w{1,64}$/.test(name) ? name : JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name);
}

/** Past this length a table of aioson's is refused: its defaults, copied into every row an insert leaves them to, stay below it. */
const TABLE_MAX_CHARS = 16_384;
/** Past this length an index is not read as a plain one (a long IN list is compared on every insert). */
const INDEX_MAX_CHARS = 4_096;

/**
 * SQLite's tokens as far as the check needs them: string literals, quoted names, comments, numbers, words, runs of
 * comparison characters, spaces, any other character. A word is ASCII here, where SQLite also joins any non-ASCII
 * character to it: a word SQLite reads is never split into others, so no keyword is missed.
 */
const TOKEN = /'(?:[^']|'')*'?|"(?:[^"]|"")*"?|`(?:[^`]|``)*`?|\[[^\]]*\]?|--[^\n]*|\/\*[\s\S]*?(?:\*\/|$)|\d[\w.]*|[A-Za-z_][\w$]*|[<>=!|]+|\s+|[\s\S]/g;

/** The tokens of `sql` that mean something: no spaces, no comments. */
export function sqlTokens(sql: string): string[] {
  return (sql.match(TOKEN) ?? []).filter((token) => !/^(?:\s|--|\/\*)/.test(token));
}

/** A name token as SQLite reads it, lower-cased (names are case-insensitive in ASCII); null for any other token. */
function nameOf(token: string): string | null {
  const quote = token[0];
  if (quote === '"' || quote === "`") return token.slice(1, -1).replaceAll(`${quote}${quote}`, quote).toLowerCase();
  if (quote === "[") return token.slice(1, -1).toLowerCase();
  return /^[A-Za-z_]/.test(token) ? token.toLowerCase() : null;
}

/** Reads tokens in order: the cursor of the plain-index grammar. */
class Cursor {
  at = 0;
  constructor(readonly list: readonly string[]) {}
  peek(): string {
    return (this.list[this.at] ?? "").toUpperCase();
  }
  take(...words: string[]): boolean {
    if (!words.includes(this.peek())) return false;
    this.at++;
    return true;
  }
  name(): boolean {
    if (nameOf(this.list[this.at] ?? "") === null) return false;
    this.at++;
    return true;
  }
  /** A number (signed or not), a string literal or NULL. */
  value(): boolean {
    const signed = this.take("+", "-");
    const token = this.list[this.at] ?? "";
    const ok = /^\d/.test(token) || (!signed && (token.startsWith("'") || token.toUpperCase() === "NULL"));
    if (ok) this.at++;
    return ok;
  }
  done(): boolean {
    return this.at === this.list.length;
  }
}

/** `name [COLLATE name] [ASC|DESC]`. */
function indexedColumn(cursor: Cursor): boolean {
  if (!cursor.name()) return false;
  if (cursor.take("COLLATE") && !cursor.name()) return false;
  cursor.take("ASC", "DESC");
  return true;
}

/** `name (= | <> | …) value`, `name IS [NOT] value` or `name [NOT] IN (value, …)`: no function, no LIKE or GLOB. */
function comparison(cursor: Cursor): boolean {
  if (!cursor.name()) return false;
  if (cursor.take("=", "==", "!=", "<>", "<", "<=", ">", ">=")) return cursor.value();
  if (cursor.take("IS")) {
    cursor.take("NOT");
    return cursor.value();
  }
  cursor.take("NOT");
  if (!cursor.take("IN") || !cursor.take("(")) return false;
  do if (!cursor.value()) return false;
  while (cursor.take(","));
  return cursor.take(")");
}

/**
 * An index over columns, with at most a WHERE of comparisons with constants (AIOSON's own `event_type IN (…)`
 * index): what it computes on every insert is a copy of the columns and a few comparisons.
 */
function isPlainIndex(sql: string): boolean {
  if (sql.length > INDEX_MAX_CHARS) return false;
  const cursor = new Cursor(sqlTokens(sql));
  if (!cursor.take("CREATE")) return false;
  cursor.take("UNIQUE");
  if (!cursor.take("INDEX") || !cursor.name() || !cursor.take("ON") || !cursor.name() || !cursor.take("(")) return false;
  do if (!indexedColumn(cursor)) return false;
  while (cursor.take(","));
  if (!cursor.take(")")) return false;
  if (cursor.take("WHERE")) {
    do if (!comparison(cursor)) return false;
    while (cursor.take("AND", "OR"));
  }
  return cursor.done();
}

function indexProblem(name: string, table: string, sql: string | null): string | null {
  // An index SQLite makes for a PRIMARY KEY or UNIQUE column has no text.
  if (sql === null || FRESH.indexes[name] === sql || isPlainIndex(sql) || INDEX_TEXTS_WRITTEN.has(sha256(sql))) return null;
  return `index ${shown(name)} on ${shown(table)} computes an expression aioson never wrote`;
}

/**
 * Whether a CREATE TABLE may hold an expression. SQLite's grammar has three places for one, `DEFAULT (…)`,
 * `CHECK (…)` and a generated column's `AS (…)`: a text with no word AS or CHECK, no DEFAULT followed by `(` and no
 * comment (which could stand between them) has none. A string or a name that merely looks like one of these sends
 * the table to the tokens, which decide.
 */
const MAY_HOLD_EXPRESSION = /\b(?:AS|CHECK)\b|DEFAULT\s*\(|--|\/\*/i;

function tableProblem(name: string, sql: string): string | null {
  if (FRESH.tables[name] === sql) return null;
  if (!sql.startsWith("CREATE TABLE ")) return `the store has no ordinary ${shown(name)} table (${sql.startsWith("CREATE VIRTUAL TABLE ") ? "a virtual table has its name" : "its text is not SQLite's"})`;
  if (sql.length > TABLE_MAX_CHARS) return `the definition of table ${shown(name)} is ${sql.length} characters long`;
  if (!MAY_HOLD_EXPRESSION.test(sql)) return null;
  const list = sqlTokens(sql).map((token) => token.toUpperCase());
  for (let i = 0; i < list.length; i++) {
    if (list[i] === "CHECK") return `table ${shown(name)} has a CHECK constraint (computed on every write)`;
    if (list[i] === "AS" || list[i] === "GENERATED") return `table ${shown(name)} has a generated column (computed on every read)`;
    if (list[i] === "DEFAULT" && list[i + 1] === "(") return `table ${shown(name)} has a computed default (computed on every write)`;
  }
  return null;
}

function isOwnTable(name: string): boolean {
  return Object.hasOwn(FRESH.tables, name.toLowerCase());
}

/**
 * The first of aioson's tables the foreign key of another table points at; null when none. A text without a comment
 * names its parent right after REFERENCES (spaces and a quote between), which one regular expression finds; the
 * tokens decide for the others and for what it finds.
 */
let referencesOwn: RegExp | null = null;

function referencedTable(sql: string): string | null {
  referencesOwn ??= new RegExp(`\\bREFERENCES\\s*["\`[]?(?:${Object.keys(FRESH.tables).join("|")})\\b`, "i");
  if (!referencesOwn.test(sql) && !sql.includes("--") && !sql.includes("/*")) return null;
  const list = sqlTokens(sql);
  for (let i = 0; i + 1 < list.length; i++) {
    const parent = (list[i] as string).toUpperCase() === "REFERENCES" ? nameOf(list[i + 1] as string) : null;
    if (parent !== null && isOwnTable(parent)) return parent;
  }
  return null;
}

/** One row of `sqlite_master`: type, name, tbl_name, sql. */
export type SchemaEntry = [type: unknown, name: unknown, table: unknown, sql: unknown];

function entryProblem([type, name, table, sql]: SchemaEntry): string | null {
  if (typeof type !== "string" || typeof name !== "string" || typeof table !== "string" || (sql !== null && typeof sql !== "string")) {
    return "its schema holds a row that is not text";
  }
  if (!isOwnTable(table)) {
    if (type !== "table" || sql === null) return null;
    if (name.toLowerCase().startsWith("sqlite_stat")) return `it holds query statistics (${shown(name)}), which aioson never writes and which can make its reads scan the whole store`;
    const parent = referencedTable(sql);
    return parent === null ? null : `table ${shown(name)} has a foreign key on ${parent} (a prune would write into it)`;
  }
  if (type === "index") return indexProblem(name, table, sql);
  if (type === "trigger") return `trigger ${shown(name)} runs on every write to ${shown(table)}`;
  if (type !== "table") return `the store has no ${shown(name)} table (${shown(name)} is a ${shown(type)})`;
  return tableProblem(name, sql ?? "");
}

/** The first problem of a store's `sqlite_master` rows, those on aioson's tables first (the one a person looks for); null when none. */
export function schemaProblem(entries: readonly SchemaEntry[]): string | null {
  let other: string | null = null;
  for (const entry of entries) {
    const problem = entryProblem(entry);
    if (problem && typeof entry[2] === "string" && isOwnTable(entry[2])) return problem;
    other ??= problem;
  }
  return other;
}

/**
 * The rows of `sqlite_master` schemaProblem must read once a store is not FRESH's: every row on one of aioson's tables,
 * and the tables of other names that may hold statistics or a foreign key. SQLite leaves out the others, which in a
 * store AIOSON's other tools share are most.
 */
function suspectsSql(): string {
  const ours = Object.keys(FRESH.tables).map((table) => `'${table}'`).join(", ");
  return `SELECT type, name, tbl_name, sql FROM sqlite_master
    WHERE typeof(type) <> 'text' OR typeof(name) <> 'text' OR typeof(tbl_name) <> 'text' OR typeof(sql) NOT IN ('text', 'null')
      OR lower(tbl_name) IN (${ours}) OR (type = 'table' AND (lower(substr(name, 1, 11)) = 'sqlite_stat' OR instr(upper(sql), 'REFERENCES') > 0))`;
}

/** Whether the store lists exactly the rows of a store this build creates (shape.ts), in either order. */
function isFresh(db: Database): boolean {
  return listing(db, LISTING_SQL) === FRESH.listing || listing(db, SORTED_LISTING_SQL) === FRESH.sorted;
}

/**
 * Throws UnsafeStoreError when the schema of `db` (the store at `path`) is not one aioson's statements may run on;
 * true when it is exactly the schema this build creates (a comparison with FRESH, and nothing to migrate).
 */
export function verifyStoreSchema(db: Database, path: string): boolean {
  if (isFresh(db)) return true;
  const problem = schemaProblem(db.query(suspectsSql()).values() as SchemaEntry[]);
  if (problem) throw new UnsafeStoreError(path, problem);
  return false;
}
