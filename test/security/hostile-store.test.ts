/**
 * Issue 25, a hostile store: the repository the agent cloned commits `.aioson/runtime/aios.sqlite`, and its schema is
 * code SQLite runs on aioson's reads and writes. Each attack below passed the first round's checks (the dashboard's
 * table check, `trusted_schema=OFF`); before the schema check, a generated `message` made hooks:recap peak at 240 MB
 * and runtime:status run out of memory at 2.4 GB, a trigger or an index expression wrote 100 MB into the store on
 * every hook write. Now every open checks the schema first (src/store/verify.ts): hooks exit 0 with their idle
 * answer, log why, and read or write nothing; people-facing commands say what is wrong and what to do. The stores
 * aioson and AIOSON's other tools make still open. And a crafted file can hold a value far larger than itself (an
 * overflow chain that loops): before, runtime:status peaked at 537 MB on a 2.3 MB store; reads of free text now ask
 * SQLite for a value only when its record says it is small (src/store/bounded.ts).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTemp, rows, runAioson, tempDir, tempProject } from "../helpers.ts";
import { hookLogOf, type Hostile, hostileProject, PEAK_BOUND_KIB, peakRss, runBounded, runtimeOf, WRITE_PAYLOAD } from "./paths-helpers.ts";
import { openDbFile } from "../../scripts/open-db.ts";
import { freshShape } from "../../src/store/shape.ts";
import { INDEX_TEXTS_WRITTEN, schemaProblem, sha256 } from "../../src/store/verify.ts";

afterAll(cleanupTemp);

/** 100 MB of `x` for every row it is computed for. */
const BULK = "printf('%.*c', 100000000, 'x')";
const WRITE = JSON.stringify(WRITE_PAYLOAD);
const COMPACT = JSON.stringify({ hook_event_name: "SessionStart", source: "compact", session_id: "S-1" });
/** The recap_steps index as schema 4's first build wrote it (fb8e773), which the stores it made keep. */
const FIRST_RECAP_STEPS = "CREATE INDEX idx_execution_events_recap_steps ON execution_events(COALESCE(harness_session_id, run_key), (CASE WHEN (json_valid(payload_json) AND instr(payload_json, '\\u') = 0 AND length(payload_json) - length(replace(payload_json, '\"command\"', '')) <= 9 AND length(payload_json) - length(replace(payload_json, '\"outcome\"', '')) <= 9 AND length(payload_json) - length(replace(payload_json, '\"test_runner\"', '')) <= 13) THEN\n    CASE WHEN json_type(payload_json, '$.command') = 'text' AND json_extract(payload_json, '$.command') <> ''\n      THEN (CASE WHEN json_type(payload_json, '$.test_runner') = 'true' THEN 't' ELSE 'c' END) || json_extract(payload_json, '$.command')\n      ELSE (CASE WHEN json_type(payload_json, '$.test_runner') = 'true' THEN 'T' ELSE 'M' END) || message END\n    ELSE 'u' || length(COALESCE(payload_json, '')) || ':' || COALESCE(payload_json, '') || message END), id) WHERE event_type = 'step_done' AND (CASE WHEN (json_valid(payload_json) AND instr(payload_json, '\\u') = 0 AND length(payload_json) - length(replace(payload_json, '\"command\"', '')) <= 9 AND length(payload_json) - length(replace(payload_json, '\"outcome\"', '')) <= 9 AND length(payload_json) - length(replace(payload_json, '\"test_runner\"', '')) <= 13) THEN json_extract(payload_json, '$.outcome') IN ('passed', 'failed') ELSE payload_json IS NOT NULL END)";

function storeOf(project: string): string {
  return join(runtimeOf(project), "aios.sqlite");
}

/** A project whose store the binary made: two writes and a compaction of session S-1, a recap's material. */
function recorded(): Hostile {
  const h = hostileProject();
  for (const file of ["src/a.ts", "src/b.ts"]) runAioson(["hooks:emit", h.project], { stdin: JSON.stringify({ ...WRITE_PAYLOAD, tool_input: { file_path: file } }), home: h.home });
  runAioson(["hooks:emit", h.project], { stdin: JSON.stringify({ hook_event_name: "PreCompact", trigger: "auto", session_id: "S-1" }), home: h.home });
  return h;
}

/** Statements run on the store, as a hand-edited committed store holds their result. */
function reshape(project: string, sql: string): void {
  const db = openDbFile(storeOf(project));
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

/**
 * `execution_events` made again from its own text as `edit` changes it, with its indexes, and its rows when `copy`
 * (a computed default or CHECK would then be computed for each of them here).
 */
function rebuildEvents(project: string, edit: (text: string) => string, copy: boolean): void {
  const db = openDbFile(storeOf(project));
  try {
    const text = (db.query("SELECT sql FROM sqlite_master WHERE name = 'execution_events'").get() as { sql: string }).sql;
    const indexes = db.query("SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'execution_events' AND sql IS NOT NULL").values().map((row) => String(row[0]));
    db.exec("ALTER TABLE execution_events RENAME TO replaced");
    db.exec(edit(text));
    const columns = db
      .query("SELECT name FROM pragma_table_xinfo('execution_events') WHERE hidden = 0 AND name IN (SELECT name FROM pragma_table_info('replaced'))")
      .values()
      .map((row) => String(row[0]))
      .join(", ");
    if (copy) db.exec(`INSERT INTO execution_events (${columns}) SELECT ${columns} FROM replaced`);
    db.exec("DROP TABLE replaced");
    for (const index of indexes) db.exec(index);
  } finally {
    db.close();
  }
}

/** Reads a SQLite varint at `at`: its value and its length in bytes. */
function varint(bytes: Buffer, at: number): [value: number, length: number] {
  let value = 0;
  for (let i = 0; i < 8; i++) {
    const byte = bytes[at + i] as number;
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return [value, i + 1];
  }
  return [value * 256 + (bytes[at + 8] as number), 9];
}

function putVarint4(bytes: Buffer, at: number, value: number): void {
  for (let i = 0; i < 4; i++) bytes[at + i] = (Math.floor(value / 2 ** (7 * (3 - i))) & 0x7f) | (i < 3 ? 0x80 : 0);
}

/**
 * A crafted file no check of SQLite's notices until the value is read: the text `column` of row `rowid` of
 * `table` (2 MB or more, so that its sizes take four bytes) claims about `claimed` bytes, and its chain of
 * overflow pages loops back to its first page, which SQLite reads again and again. The store leaves WAL mode and
 * auto-vacuum (whose pointer map would give the loop away), as an older or hand-made file is.
 */
function inflate(project: string, rowid: number, column: string, claimed: number, table = "execution_events"): void {
  const file = storeOf(project);
  const db = openDbFile(file);
  db.exec("PRAGMA journal_mode = DELETE; PRAGMA auto_vacuum = NONE; VACUUM;");
  const root = (db.query("SELECT rootpage FROM sqlite_master WHERE name = ?").get(table) as { rootpage: number }).rootpage;
  const cid = (db.query("SELECT cid FROM pragma_table_info(?) WHERE name = ?").get(table, column) as { cid: number }).cid;
  const pageSize = (db.query("PRAGMA page_size").get() as { page_size: number }).page_size;
  db.close();
  const bytes = readFileSync(file);
  const page = (root - 1) * pageSize;
  expect(bytes[page]).toBe(0x0d);
  // SQLite's local share of a payload on a table leaf page (btree.c), which must not change.
  const usable = pageSize - (bytes[20] as number);
  const [most, least] = [usable - 35, Math.floor(((usable - 12) * 32) / 255) - 23];
  const local = (payload: number): number => {
    const k = least + ((payload - least) % (usable - 4));
    return k <= most ? k : least;
  };
  for (let c = 0; c < bytes.readUInt16BE(page + 3); c++) {
    const cell = page + bytes.readUInt16BE(page + 8 + 2 * c);
    const [payload, payloadLength] = varint(bytes, cell);
    const [id, idLength] = varint(bytes, cell + payloadLength);
    if (id !== rowid) continue;
    const record = cell + payloadLength + idLength;
    let at = record + varint(bytes, record)[1];
    for (let i = 0; i < cid; i++) at += varint(bytes, at)[1];
    const [serial, serialLength] = varint(bytes, at);
    expect([payloadLength, serialLength, serial % 2]).toEqual([4, 4, 1]);
    const grown = payload + Math.floor((claimed - (serial - 13) / 2) / (usable - 4)) * (usable - 4);
    putVarint4(bytes, cell, grown);
    putVarint4(bytes, at, serial + 2 * (grown - payload));
    const first = bytes.readUInt32BE(record + local(payload));
    let last = first;
    for (let next = first; next !== 0; next = bytes.readUInt32BE((next - 1) * pageSize)) last = next;
    bytes.writeUInt32BE(first, (last - 1) * pageSize);
    writeFileSync(file, bytes);
    return;
  }
  throw new Error(`row ${rowid} is not on the root page`);
}

/** A recorded project whose newest artifact row's `column` is `value`, made to claim 120 MB (inflate). */
function inflated(column: string, value: string): Hostile {
  const h = recorded();
  const db = openDbFile(storeOf(h.project));
  const id = (db.query("SELECT max(id) AS id FROM execution_events WHERE event_type = 'artifact'").get() as { id: number }).id;
  db.query(`UPDATE execution_events SET ${column} = ? WHERE id = ?`).run(value, id);
  db.close();
  inflate(h.project, id, column, 120_000_000);
  return h;
}

/** What a refused open must leave as it was: every file of the runtime folder but the log and SQLite's shared memory. */
function runtimeFiles(project: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(runtimeOf(project)).sort()) {
    if (name.startsWith("hooks.log") || name.endsWith("-shm") || name === "live" || name === ".sessions") continue;
    files[name] = sha256(readFileSync(join(runtimeOf(project), name)).toString("latin1"));
  }
  return files;
}

type Attack = { name: string; arrange: (project: string) => void; why: string };

const ATTACKS: Attack[] = [
  {
    name: "message is a generated column computing 100 MB on every read",
    arrange: (p) => rebuildEvents(p, (text) => text.replace("message TEXT NOT NULL DEFAULT ''", `message TEXT GENERATED ALWAYS AS (${BULK}) VIRTUAL`), true),
    why: "table execution_events has a generated column",
  },
  {
    name: "an added generated column (ALTER TABLE … ADD COLUMN … AS) that SELECT * reads",
    arrange: (p) => reshape(p, `ALTER TABLE execution_events ADD COLUMN bulk TEXT GENERATED ALWAYS AS (${BULK}) VIRTUAL`),
    why: "table execution_events has a generated column",
  },
  {
    name: "a trigger writing a 100 MB row for every event a hook records",
    arrange: (p) => reshape(p, `CREATE TABLE bulk (v TEXT); CREATE TRIGGER grow AFTER INSERT ON execution_events BEGIN INSERT INTO bulk VALUES (${BULK}); END;`),
    why: "trigger grow runs on every write to execution_events",
  },
  {
    name: "an index expression computing 100 MB for every event a hook records",
    arrange: (p) => reshape(p, `DELETE FROM execution_events; CREATE INDEX grow ON execution_events(length(${BULK}))`),
    why: "index grow on execution_events computes an expression aioson never wrote",
  },
  {
    name: "a CHECK constraint computing 100 MB on every insert",
    arrange: (p) => rebuildEvents(p, (text) => `${text.slice(0, -1)}, CHECK (length(${BULK}) > 0))`, false),
    why: "table execution_events has a CHECK constraint",
  },
  {
    name: "a column default computing 100 MB into every row a hook records",
    arrange: (p) => rebuildEvents(p, (text) => `${text.slice(0, -1)}, bulk TEXT DEFAULT (${BULK}))`, false),
    why: "table execution_events has a computed default",
  },
  {
    name: "a view named execution_events whose every read counts to 10^8",
    arrange: (p) =>
      reshape(
        p,
        "ALTER TABLE execution_events RENAME TO real_events; CREATE VIEW execution_events AS SELECT r.* FROM real_events AS r, (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000000) SELECT i FROM n);",
      ),
    why: "the store has no execution_events table (execution_events is a view)",
  },
  {
    name: "a virtual table named execution_events",
    arrange: (p) => reshape(p, "ALTER TABLE execution_events RENAME TO real_events; CREATE VIRTUAL TABLE execution_events USING fts5(message);"),
    why: "the store has no ordinary execution_events table",
  },
  {
    name: "forged sqlite_stat1 statistics that make the run index look useless",
    arrange: (p) => reshape(p, "ANALYZE; DELETE FROM sqlite_stat1; INSERT INTO sqlite_stat1 VALUES ('execution_events', 'idx_execution_events_run', '1000000 1000000 1000000 1000000');"),
    why: "it holds query statistics (sqlite_stat1)",
  },
  {
    name: "a table whose foreign key cascades from tasks into a trigger",
    arrange: (p) =>
      reshape(
        p,
        `CREATE TABLE shadow (task_key TEXT REFERENCES tasks(task_key) ON DELETE CASCADE); CREATE TABLE bulk (v TEXT);
         CREATE TRIGGER grow AFTER DELETE ON shadow BEGIN INSERT INTO bulk VALUES (${BULK}); END; INSERT INTO shadow SELECT task_key FROM tasks;`,
      ),
    why: "table shadow has a foreign key on tasks",
  },
];

describe("a committed store whose schema runs code on aioson's reads and writes", () => {
  for (const attack of ATTACKS) {
    test(`${attack.name}: hooks exit 0 with their idle answer, log why, and touch nothing`, async () => {
      const h = recorded();
      attack.arrange(h.project);
      const before = runtimeFiles(h.project);
      const emit = await runBounded(["hooks:emit", h.project, "--json"], { h, stdin: WRITE });
      expect(emit.timedOut).toBe(false);
      expect(emit.code).toBe(0);
      expect(JSON.parse(emit.stdout)).toEqual({ ok: false });
      const recap = peakRss(`printf '%s' '${COMPACT}'`, ["hooks:recap", h.project, "--json"], h);
      expect(recap.code).toBe(0);
      expect(JSON.parse(recap.stdout)).toEqual({});
      expect(recap.peakKiB).toBeLessThan(PEAK_BOUND_KIB);
      expect(hookLogOf(h)).toContain("refused to open");
      expect(hookLogOf(h)).toContain(attack.why);
      expect(runtimeFiles(h.project)).toEqual(before);
    });
  }

  test("runtime:status and live:status say what is wrong and what to do, within the memory bound", () => {
    const h = recorded();
    ATTACKS[0]?.arrange(h.project);
    const status = peakRss("true", ["runtime:status", h.project, "--json"], h);
    expect(status.code).toBe(1);
    expect(status.peakKiB).toBeLessThan(PEAK_BOUND_KIB);
    const error = (JSON.parse(status.stdout) as { error: { message: string } }).error.message;
    expect(error).toContain("table execution_events has a generated column");
    expect(error).toContain("Move it away with its -wal and -shm files, then run `aioson runtime:init`");
    const live = runAioson(["live:status", h.project], { home: h.home });
    expect(live.code).toBe(1);
    expect(live.stderr).toContain("table execution_events has a generated column");
    // The next step names the way out of a committed store, not the generic hooks:doctor hint.
    expect(live.stderr).toContain("git rm --cached .aioson/runtime/aios.sqlite");
    expect(live.stderr).not.toContain("hooks:doctor");
  });

  test("runtime:prune refuses a store where deleting a task would cascade into another table's trigger", () => {
    const h = recorded();
    ATTACKS[9]?.arrange(h.project);
    const before = runtimeFiles(h.project);
    const prune = runAioson(["runtime:prune", h.project, "--json"], { home: h.home });
    expect(prune.code).toBe(1);
    expect(prune.stdout).toContain("table shadow has a foreign key on tasks");
    expect(runtimeFiles(h.project)).toEqual(before);
    expect(rows(h.project, "SELECT count(*) AS n FROM bulk")).toEqual([{ n: 0 }]);
  });
});

describe("a value larger than the file (an overflow chain that loops)", () => {
  test("the crafted file really holds a 120 MB value in 2 MB", () => {
    const h = inflated("harness", "h".repeat(2_100_000));
    expect(Bun.file(storeOf(h.project)).size).toBeLessThan(3 * 1024 * 1024);
    expect((rows<{ n: number }>(h.project, "SELECT octet_length(harness) AS n FROM execution_events ORDER BY n DESC LIMIT 1")[0] as { n: number }).n).toBeGreaterThan(100_000_000);
  });

  test("runtime:status reads every column within its bound (the value reads as null)", () => {
    const h = inflated("harness", "h".repeat(2_100_000));
    const status = peakRss("true", ["runtime:status", h.project, "--json"], h);
    expect(status.code).toBe(0);
    expect(status.peakKiB).toBeLessThan(PEAK_BOUND_KIB);
    const events = (JSON.parse(status.stdout) as { recentEvents: Array<{ harness: string | null }> }).recentEvents;
    expect(events.map((event) => event.harness)).toContain(null);
    expect(events.map((event) => event.harness)).toContain("claude");
  });
});

describe("a run or task row larger than the file", () => {
  test("every hook write reads its run and task within their bounds: hooks:emit exits 0 within the memory bound", () => {
    for (const [table, column, key] of [["agent_runs", "title", "run_key"], ["tasks", "goal", "task_key"]] as const) {
      const h = recorded();
      const db = openDbFile(storeOf(h.project));
      const row = db.query(`SELECT rowid AS id FROM ${table} WHERE ${key} = (SELECT run_key FROM execution_events WHERE run_key IS NOT NULL ORDER BY id DESC LIMIT 1) OR ${key} = (SELECT task_key FROM agent_runs LIMIT 1)`).get() as { id: number };
      db.query(`UPDATE ${table} SET ${column} = ? WHERE rowid = ?`).run("h".repeat(2_100_000), row.id);
      db.close();
      inflate(h.project, row.id, column, 120_000_000, table);
      const before = rows<{ n: number }>(h.project, "SELECT COUNT(*) AS n FROM execution_events")[0]?.n ?? 0;
      const emit = peakRss(`printf '%s' '${JSON.stringify({ ...WRITE_PAYLOAD, tool_input: { file_path: "src/c.ts" } })}'`, ["hooks:emit", h.project], h);
      expect({ table, code: emit.code }).toEqual({ table, code: 0 });
      expect(emit.peakKiB).toBeLessThan(PEAK_BOUND_KIB);
      // The event lands, or SQLite finds the row damaged when it rewrites it (logged): never a 120 MB read.
      const landed = rows<{ n: number }>(h.project, "SELECT COUNT(*) AS n FROM execution_events")[0]?.n === before + 1;
      expect(landed || hookLogOf(h).includes("database disk image is malformed")).toBe(true);
    }
  }, 60_000);
});

describe("the stores aioson and AIOSON's other tools make still open", () => {
  /** What AIOSON's other tools add to a shared store (spec 2.3), written here in their manner. */
  const SHARED = `
    CREATE TABLE squads (squad_slug TEXT PRIMARY KEY, status TEXT DEFAULT 'draft' CHECK (status IN ('draft', 'active')),
      created_at TEXT NOT NULL DEFAULT (datetime('now')));
    CREATE TABLE squad_ports (id INTEGER PRIMARY KEY AUTOINCREMENT, squad_slug TEXT NOT NULL, FOREIGN KEY (squad_slug) REFERENCES squads(squad_slug));
    CREATE TABLE learnings (learning_id TEXT PRIMARY KEY, title TEXT, evidence TEXT);
    CREATE VIRTUAL TABLE learnings_fts USING fts5(title, evidence, content='learnings', content_rowid='rowid');
    CREATE TRIGGER learnings_ai AFTER INSERT ON learnings BEGIN INSERT INTO learnings_fts(rowid, title, evidence) VALUES (new.rowid, new.title, new.evidence); END;
    CREATE INDEX idx_squad_ports_squad ON squad_ports(lower(squad_slug));
    CREATE INDEX idx_execution_events_context_load
      ON execution_events(event_type, agent_name)
      WHERE event_type IN ('rule_loaded', 'brain_loaded');
    CREATE INDEX idx_content_items_squad ON content_items(squad_slug, updated_at DESC);
    INSERT INTO learnings VALUES ('l-1', 'a lesson', 'why');
  `;

  test("a store shared with AIOSON's other tools: hooks record and recap, people read it", () => {
    const h = recorded();
    reshape(h.project, SHARED);
    const emit = runAioson(["hooks:emit", h.project, "--json"], { stdin: WRITE, home: h.home });
    expect((emit.json as { ok: boolean }).ok).toBe(true);
    const recap = runAioson(["hooks:recap", h.project, "--json"], { stdin: COMPACT, home: h.home });
    expect(recap.stdout).toContain("src/b.ts");
    expect(runAioson(["runtime:status", h.project, "--json"], { home: h.home }).code).toBe(0);
    expect(hookLogOf(h)).toBe("");
  });

  test("a store an earlier build made: its recap_steps index, its rows in another order", () => {
    const h = recorded();
    reshape(h.project, `DROP INDEX idx_execution_events_recap_steps; ${FIRST_RECAP_STEPS}`);
    expect((runAioson(["hooks:emit", h.project, "--json"], { stdin: WRITE, home: h.home }).json as { ok: boolean }).ok).toBe(true);
    // The otel tables made again come after every index, as in a store a schema-2 build made and this one migrated.
    const reordered = recorded();
    const { otel_export_cursors: cursors, otel_export_state: state } = freshShape().tables;
    reshape(reordered.project, `DROP TABLE otel_export_cursors; DROP TABLE otel_export_state; ${cursors}; ${state};`);
    expect((runAioson(["hooks:emit", reordered.project, "--json"], { stdin: WRITE, home: reordered.home }).json as { ok: boolean }).ok).toBe(true);
    expect(hookLogOf(h) + hookLogOf(reordered)).toBe("");
  });

  test("an index of aioson's name with an expression no build wrote is refused", () => {
    const h = recorded();
    reshape(h.project, `DROP INDEX idx_execution_events_recap_steps; CREATE INDEX idx_execution_events_recap_steps ON execution_events(length(${BULK})) WHERE event_type = 'step_done'`);
    expect(runAioson(["hooks:emit", h.project, "--json"], { stdin: WRITE, home: h.home }).json).toEqual({ ok: false });
    expect(hookLogOf(h)).toContain("index idx_execution_events_recap_steps on execution_events computes an expression aioson never wrote");
  });

  test("the dashboard shows a hostile store as unreadable, with the reason", async () => {
    const { startDashboard, getJson } = await import("../dashboard/helpers.ts");
    const h = recorded();
    ATTACKS[2]?.arrange(h.project);
    const dashboard = await startDashboard([h.project, "--no-open", "--port=0"], { home: h.home });
    try {
      const { projects } = await getJson<{ projects: Array<{ store: boolean; problem: string | null }> }>(dashboard, "/api/projects");
      expect(projects[0]?.store).toBe(false);
      expect(projects[0]?.problem).toContain("trigger grow runs on every write to execution_events");
    } finally {
      await dashboard.stop();
    }
  });
});

describe("the shape aioson writes", () => {
  test("every index text with an expression this build creates is recorded, so that a store keeping it opens after the text changes", () => {
    for (const [name, sql] of Object.entries(freshShape().indexes)) {
      // Under another name the text is judged as an earlier build's: plain, or recorded in INDEX_TEXTS_WRITTEN.
      const problem = schemaProblem([["index", `${name}_of_an_earlier_build`, "execution_events", sql]]);
      if (problem) throw new Error(`${problem}: add "${sha256(sql)}" (${name}) to INDEX_TEXTS_WRITTEN in src/store/verify.ts, keeping the hashes there`);
    }
  });

  test("a store this build creates passes the row-by-row check too", () => {
    const project = tempProject();
    runAioson(["runtime:init", project], { home: tempDir("aioson-home-") });
    const entries = rows<{ type: string; name: string; tbl_name: string; sql: string | null }>(project, "SELECT type, name, tbl_name, sql FROM sqlite_master");
    expect(entries.length).toBeGreaterThan(30);
    expect(schemaProblem(entries.map((row) => [row.type, row.name, row.tbl_name, row.sql]))).toBeNull();
  });
});
