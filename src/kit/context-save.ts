/**
 * context-save: before compaction, a markdown snapshot of the session as the store recorded it (hooks:emit rows,
 * spec hooks-behavior §4): files edited (`artifact`), commands run (`step_done`), decisions, open TODOs (the
 * last plan of `TodoWrite`/`update_plan` notes) and the last agent message. Written to
 * `<root>/<dir>/session-<id>-snapshot.md` (dir `docs/maps` unless kit.json says otherwise). The agent is told to
 * read it after the compaction, so every recorded item in it is sanitised like the recap's (withheld ones are
 * counted at the end), and the file is written only inside the project, never through a symlink.
 */
import type { Database } from "bun:sqlite";
import { join, relative, sep } from "node:path";
import { writeProjectFileAtomic } from "../core/project-fs.ts";
import { isInside } from "../core/project-root.ts";
import { slugify } from "../core/time.ts";
import { JSON_READ_MAX, TEXT_READ_MAX, within } from "../store/bounded.ts";
import { parseJsonObject } from "../store/records.ts";
import { Sanitizer, withheldLine } from "../text/sanitize.ts";

export const DEFAULT_SNAPSHOT_DIR = join("docs", "maps");
const MAX_EVENTS = 5_000;
const MAX_FILES = 100;
const MAX_COMMANDS = 40;
const MAX_DECISIONS = 20;
const MAX_TODOS = 50;

export type EventRow = { id: number; run_key: string | null; event_type: string; message: string; payload_json: string | null; created_at: string };

export type Snapshot = {
  sessionId: string;
  files: string[];
  commands: Array<{ command: string; outcome: string }>;
  decisions: string[];
  todos: Array<{ content: string; status: string }>;
  lastMessage: string | null;
  events: number;
  /** Recorded items left out because they read like instructions to an AI. */
  withheld: number;
};

/** The rows of the harness session; without one (or no row for it), the rows of the latest run. */
export function sessionRows(db: Database, harnessSessionId: string): EventRow[] {
  const columns = `id, ${within("run_key", TEXT_READ_MAX)} AS run_key, ${within("event_type", TEXT_READ_MAX)} AS event_type, ${within("message", TEXT_READ_MAX)} AS message, ${within("payload_json", JSON_READ_MAX)} AS payload_json, ${within("created_at", TEXT_READ_MAX)} AS created_at`;
  if (harnessSessionId) {
    const rows = db.query(`SELECT ${columns} FROM execution_events WHERE harness_session_id = ? ORDER BY id DESC LIMIT ${MAX_EVENTS}`).all(harnessSessionId) as EventRow[];
    if (rows.length > 0) return rows.reverse();
  }
  const latest = db.query("SELECT run_key FROM execution_events WHERE run_key IS NOT NULL ORDER BY id DESC LIMIT 1").get() as { run_key: string } | null;
  if (!latest) return [];
  // Through the run's index: `sequence_no` grows with `id` inside a run (spec 2.5); `id` would sort every row of it.
  return (db.query(`SELECT ${columns} FROM execution_events WHERE run_key = ? ORDER BY execution_events.sequence_no DESC, execution_events.id DESC LIMIT ${MAX_EVENTS}`).all(latest.run_key) as EventRow[]).reverse();
}

const DECISION_LINE = /^\s*(?:[-*]\s*)?(?:\*\*)?(?:decision|decided|decisão|decisao|decidimos|decidi)\b/i;
const TODO_LINE = /^\s*(?:[-*]\s*)?(?:\[ \]\s*|TODO\b[:\s]|FIXME\b[:\s])/;

function pushUnique(list: string[], value: string, max: number): void {
  if (value && !list.includes(value) && list.length < max) list.push(value);
}

function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}

export function buildSnapshot(sessionId: string, rows: readonly EventRow[]): Snapshot {
  const clean = new Sanitizer();
  const snapshot: Snapshot = { sessionId: clean.item(sessionId) ?? "", files: [], commands: [], decisions: [], todos: [], lastMessage: null, events: rows.length, withheld: 0 };
  const textTodos: string[] = [];
  const item = (raw: string, max: number) => clean.item(raw)?.slice(0, max) ?? "";
  for (const row of rows) {
    const payload = parseJsonObject(row.payload_json) ?? {};
    if (row.event_type === "artifact") {
      pushUnique(snapshot.files, item(str(payload.file) || row.message.replace(/^[^:]+:\s*/, ""), 1_000), MAX_FILES);
    } else if (row.event_type === "step_done") {
      const command = item(str(payload.command) || row.message.replace(/^\$\s*/, ""), 300);
      if (command) snapshot.commands.push({ command, outcome: item(str(payload.outcome), 40) || "unknown" });
    } else if (row.event_type === "decision") {
      pushUnique(snapshot.decisions, item(str(payload.text) || row.message, 300), MAX_DECISIONS);
    } else if (Array.isArray(payload.todos)) {
      snapshot.todos = (payload.todos as unknown[])
        .filter((entry): entry is Record<string, unknown> => entry !== null && typeof entry === "object")
        .map((entry) => ({ content: str(entry.content) || str(entry.step), status: str(entry.status) || "pending" }))
        .filter((entry) => entry.content);
    } else if (row.event_type === "agent_message") {
      const text = str(payload.text) || row.message;
      snapshot.lastMessage = text;
      for (const line of text.split("\n")) {
        if (DECISION_LINE.test(line)) pushUnique(snapshot.decisions, item(line.trim().replace(/^[-*]\s*/, ""), 300), MAX_DECISIONS);
        if (TODO_LINE.test(line)) pushUnique(textTodos, item(line.trim().replace(/^[-*]\s*/, ""), 200), MAX_TODOS);
      }
    }
  }
  snapshot.commands = snapshot.commands.slice(-MAX_COMMANDS);
  // Only the last plan counts, so its items are sanitised once it is known.
  snapshot.todos = snapshot.todos
    .filter((todo) => !/^(completed|complete|done)$/i.test(todo.status))
    .map((todo) => ({ content: item(todo.content, 500), status: todo.status === "in_progress" ? "in_progress" : "open" }))
    .filter((todo) => todo.content)
    .slice(0, MAX_TODOS);
  for (const line of textTodos) if (snapshot.todos.length < MAX_TODOS) snapshot.todos.push({ content: line, status: "noted" });
  snapshot.lastMessage = snapshot.lastMessage === null ? null : clean.item(snapshot.lastMessage);
  snapshot.withheld = clean.withheld;
  return snapshot;
}

function code(text: string): string {
  return `\`${text.replaceAll("`", "'")}\``;
}

export function snapshotMarkdown(snapshot: Snapshot, now: Date): string {
  const section = (title: string, lines: string[]) => [`## ${title}`, "", ...(lines.length > 0 ? lines : ["- (none recorded)"]), ""];
  const last = snapshot.lastMessage ?? "";
  return [
    `# Session snapshot ${snapshot.sessionId || "(unknown session)"}`,
    "",
    `Saved ${now.toISOString()} before context compaction, from ${snapshot.events} recorded event${snapshot.events === 1 ? "" : "s"}. Read this file to recover detail lost in the summary.`,
    "",
    ...section(`Files edited (${snapshot.files.length})`, snapshot.files.map((file) => `- ${code(file)}`)),
    ...section(`Commands run (${snapshot.commands.length})`, snapshot.commands.map((c) => `- ${code(c.command)} — ${c.outcome}`)),
    ...section("Decisions", snapshot.decisions.map((d) => `- ${d}`)),
    ...section("Open TODOs", snapshot.todos.map((t) => `- [ ] ${t.content}${t.status === "in_progress" ? " (in progress)" : ""}`)),
    ...section("Last agent message", last ? [`> ${last.slice(0, 1_000)}${last.length > 1_000 ? "…" : ""}`] : []),
    ...(snapshot.withheld > 0 ? [withheldLine(snapshot.withheld, "recorded item(s)"), ""] : []),
  ].join("\n");
}

/** Where the snapshot goes; a configured folder outside the project falls back to the default. */
export function snapshotPath(root: string, configuredDir: string | undefined, sessionId: string): { path: string; rejected: boolean } {
  const rejected = configuredDir !== undefined && !isInside(root, join(root, configuredDir));
  const dir = configuredDir && !rejected ? configuredDir : DEFAULT_SNAPSHOT_DIR;
  return { path: join(root, dir, `session-${slugify(sessionId || "latest", "latest")}-snapshot.md`), rejected };
}

/** Inside the project only, never through a symlinked folder (`docs/` → elsewhere is refused). */
export function writeSnapshot(root: string, path: string, markdown: string): void {
  writeProjectFileAtomic(root, path, markdown);
}

export function displayPath(root: string, path: string): string {
  return relative(root, path).split(sep).join("/");
}
