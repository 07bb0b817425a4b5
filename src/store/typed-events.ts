/**
 * Rows of given event types whatever wrote them, newest first or since a time, without reading the event log:
 * idx_execution_events_source_type is (source, event_type, created_at), and the writers (`source`) of a store are a
 * handful (live, direct, context_guard, context_brief, guard…), so a skip scan finds them and each (source, type)
 * pair is one index range.
 */
import type { Database } from "bun:sqlite";

/** The distinct `source` values of the store, NULL included (a skip scan: one seek per source). */
export function eventSources(db: Database): Array<string | null> {
  const rows = db
    .query(
      `WITH RECURSIVE sources(s) AS (
         SELECT (SELECT source FROM execution_events WHERE source IS NOT NULL ORDER BY source LIMIT 1)
         UNION ALL
         SELECT (SELECT source FROM execution_events WHERE source > sources.s ORDER BY source LIMIT 1) FROM sources WHERE sources.s IS NOT NULL)
       SELECT s FROM sources WHERE s IS NOT NULL`,
    )
    .values() as Array<[string]>;
  return [...rows.map((row) => row[0]), null];
}

type Ordered = { created_at: string; id: number };

/** `ORDER BY created_at, id` for rows merged in JavaScript. */
export function oldestFirst(a: Ordered, b: Ordered): number {
  return a.created_at === b.created_at ? a.id - b.id : a.created_at < b.created_at ? -1 : 1;
}

function newestFirst(a: Ordered, b: Ordered): number {
  return oldestFirst(b, a);
}

/**
 * The newest `limit` rows of any of `types` (`columns` must include `created_at` and `id`), newest first by
 * `created_at`, then `id`: the newest `limit` of each (source, type) range, merged.
 */
export function newestOfTypes<T extends Ordered>(db: Database, columns: string, types: readonly string[], limit: number): T[] {
  const bySource = db.query(`SELECT ${columns} FROM execution_events WHERE source = ? AND event_type = ? ORDER BY execution_events.created_at DESC, execution_events.id DESC LIMIT ?`);
  const unsourced = db.query(`SELECT ${columns} FROM execution_events WHERE source IS NULL AND event_type = ? ORDER BY execution_events.created_at DESC, execution_events.id DESC LIMIT ?`);
  const rows: T[] = [];
  for (const source of eventSources(db)) {
    for (const type of types) rows.push(...((source === null ? unsourced.all(type, limit) : bySource.all(source, type, limit)) as T[]));
  }
  return rows.sort(newestFirst).slice(0, limit);
}

/** Every row of any of `types` created at or after `since`, oldest first by `created_at`, then `id`. */
export function typesSince<T extends Ordered>(db: Database, columns: string, types: readonly string[], since: string): T[] {
  const bySource = db.query(`SELECT ${columns} FROM execution_events WHERE source = ? AND event_type = ? AND created_at >= ?`);
  const unsourced = db.query(`SELECT ${columns} FROM execution_events WHERE source IS NULL AND event_type = ? AND created_at >= ?`);
  const rows: T[] = [];
  for (const source of eventSources(db)) {
    for (const type of types) rows.push(...((source === null ? unsourced.all(type, since) : bySource.all(source, type, since)) as T[]));
  }
  return rows.sort(oldestFirst);
}
