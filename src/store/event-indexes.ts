/**
 * Indexes that keep every read of `execution_events` bounded as a store grows to millions of rows (issue 16), and
 * the SQL terms that must match them. SQLite uses an index on an expression, or a partial index, only for a query
 * that spells the same expression or the same WHERE term, so each one is written once here, for a given table
 * alias: `""` in the CREATE INDEX, `"e."` in the queries.
 */
import { COMPACTION_CONFIRMED } from "../recap/markers.ts";

/**
 * A payload written by hooks:emit carries this exact text (JSON.stringify adds no spaces); reading it as text spares
 * parsing every row of a long session.
 */
export const HOOKS_MARK = '"written_by":"hooks:emit"';

/** Plan notes: whole lists (TodoWrite, update_plan) and task-by-task plans folded into one (emit/task-plan.ts). */
export const PLAN_TOOL_NAMES: readonly string[] = ["TodoWrite", "update_plan", "TaskCreate", "TaskUpdate", "TaskCreated"];

/** Session bookkeeping, never a continuity note (spec 5.5); hooks:recap writes the confirmations itself. */
export const NOT_NOTES: readonly string[] = [
  "session_started", "session_ended", "session_closed", "agent_done", "compaction", COMPACTION_CONFIRMED, "start", "update", "finished",
];

const quoted = (values: readonly string[]): string => values.map((value) => `'${value}'`).join(", ");

/** A `note` row whose payload names a plan tool (the recap's newest plan). */
export function planNoteTerm(alias: string): string {
  return `(${PLAN_TOOL_NAMES.map((tool) => `instr(${alias}payload_json, '"tool":"${tool}"') > 0`).join(" OR ")})`;
}

/** A row that can be a continuity note (spec 5.5): not written by hooks:emit, not bookkeeping. */
export function noteTerm(alias: string): string {
  return `instr(COALESCE(${alias}payload_json, ''), '${HOOKS_MARK}') = 0 AND ${alias}event_type NOT IN (${quoted(NOT_NOTES)})`;
}

/**
 * A payload that SQLite reads exactly as JSON.parse does, for the keys the recap reads from it: valid JSON, no `\u`
 * escape (lone surrogates decode differently), and none of `keys` written twice (JSON.parse keeps the last, SQLite
 * finds the first). Any other payload is "untrusted": SQL does not interpret it, the recap reads it in JavaScript.
 */
function trusted(alias: string, keys: readonly string[]): string {
  const p = `${alias}payload_json`;
  const once = (key: string): string => `length(${p}) - length(replace(${p}, '"${key}"', '')) <= ${key.length + 2}`;
  return `(json_valid(${p}) AND instr(${p}, '\\u') = 0 AND ${keys.map(once).join(" AND ")})`;
}

/**
 * The grouping key of a `step_done` row for the recap's failing commands and last test. Rows that share a key have
 * the same command once normalized (recap/facts.ts stepCommand), the same test-runner flag and a conclusive outcome
 * (`passed`/`failed`), so the newest row of each key holds the newest conclusive row of every command, and the
 * newest test run. Keys may be finer than commands (the raw text, the message fallback, an untrusted row of its
 * own): the recap groups them again in JavaScript. First letters: `c`/`t` conclusive (`t` a test run), then `$`
 * the payload's command or `m` the message; `u` an untrusted row (its payload's length, payload and message, so it
 * is unambiguous); `z`, the one key of every step no fact reads (no payload, an outcome that is not conclusive),
 * which the recap never enumerates. `json_extract` fails on malformed JSON, so it is only reached through a CASE
 * that validated the payload first.
 */
export function stepKey(alias: string): string {
  const p = `${alias}payload_json`;
  return `(CASE WHEN ${p} IS NULL THEN 'z' WHEN ${trusted(alias, ["command", "outcome", "test_runner"])} THEN
    CASE WHEN json_extract(${p}, '$.outcome') IN ('passed', 'failed')
      THEN (CASE WHEN json_type(${p}, '$.test_runner') = 'true' THEN 't' ELSE 'c' END)
        || (CASE WHEN json_type(${p}, '$.command') = 'text' AND json_extract(${p}, '$.command') <> '' THEN '$' || json_extract(${p}, '$.command') ELSE 'm' || ${alias}message END)
      ELSE 'z' END
    ELSE 'u' || length(${p}) || ':' || ${p} || ${alias}message END)`;
}

/** The keys of the steps a fact can come from (see stepKey). */
export const STEP_KEYS_BELOW = "'z'";

/**
 * The grouping key of an `artifact` row for the recap's files (spec 5.5: distinct `payload.file`). Rows that share a
 * key have the same file as JSON.parse reads it, so the newest row of each key in the span holds every file and the
 * newest row of each. `$` then the file, for a payload SQLite reads as JavaScript does (`trusted`); `u` then the
 * payload, for any other (the recap reads it in JavaScript: an untrusted row is its own key unless its text is the
 * same); `z`, the one key of the rows that name no file (no payload, a `file` that is not a non-empty string), which
 * the recap never enumerates. The payload text from `"file":` on, which the recap grouped by before, is no such key:
 * `{"a\"file":"x"}` and `{"file":"x"}`, or a malformed payload and a valid one, share it.
 */
export function fileKey(alias: string): string {
  const p = `${alias}payload_json`;
  return `(CASE WHEN ${p} IS NULL THEN 'z' WHEN ${trusted(alias, ["file"])} THEN
    CASE WHEN json_type(${p}, '$.file') = 'text' AND json_extract(${p}, '$.file') <> '' THEN '$' || json_extract(${p}, '$.file') ELSE 'z' END
    ELSE 'u' || ${p} END)`;
}

/** The keys of the files a checkpoint can list (see fileKey). */
export const FILE_KEYS_BELOW = "'z'";

/** The index the recap walks file by file in a long span (recap/rows.ts); defined in EVENT_INDEXES. */
export const SPAN_FILES_INDEX = "idx_execution_events_span_files";

/**
 * Texts one of which an item holds, once lower-cased and without its spaces, when the sanitiser withholds it
 * (text/sanitize.ts, step 5): for each instruction pattern there, what it cannot match without (`ignore`…, `you are`,
 * `from now on`, `ai:` for `ai\s*[,:]`…). test/unit/recap-withheld.test.ts holds the patterns to them.
 */
export const INSTRUCTION_MARKS: readonly string[] = [
  "ignore", "disregard", "forget", "override", "youare", "fromnowon", "henceforth", "systemprompt", "systemmessage", "developermessage",
  "jailbreak", "system:", "assistant:", "developer:", "<|", "donot", "don't", "never", "instructions", "ai:", "ai,", "llm:", "llm,",
  "assistant,", "model:", "model,",
];

/**
 * What a text holds, besides those marks, that the sanitiser reads through before its test, so that it could join
 * two parts of a mark: an HTML comment, or a JSON escape that decodes to a control, a space of another kind or
 * anything at all (`\u`).
 */
const READ_THROUGH: readonly string[] = ["<!--", "\\u", "\\b", "\\f", "\\n", "\\r", "\\t"];

const sqlText = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/**
 * A `step_done` or `artifact` row whose checkpoint item (recap/facts.ts: a step's command, else its `$ ` message; an
 * artifact's file) the sanitiser may withhold, read from the row's whole text (payload and message): anything but
 * printable ASCII (a look-alike letter, a hidden character, a control the sanitiser removes; length() stops at a NUL,
 * a blob's length does not), a READ_THROUGH text, or an INSTRUCTION_MARK once lower-cased and without spaces. An item
 * is a JSON string of the payload (JSON.parse reads no other) or the message, and without those its every step
 * before the test only trims and collapses spaces, and redaction only puts `[REDACTED]` in place of a part (no mark
 * is in it, none can straddle its brackets): so every row of an item the sanitiser withholds is such a row, and the
 * recap counts the withheld commands and files of a long window from them alone (recap/rows.ts). No JSON function:
 * the text is evaluated on every insert of those rows and parsed with the schema on every open.
 */
export function withheldCandidateTerm(alias: string): string {
  const text = `(COALESCE(${alias}payload_json, '') || COALESCE(${alias}message, ''))`;
  const marked = [...READ_THROUGH, ...INSTRUCTION_MARKS].reduce((inner, mark) => `replace(${inner}, ${sqlText(mark)}, char(1))`, `replace(lower(${text}), ' ', '')`);
  return `(${text} GLOB '*[^ -~]*' OR length(${text}) <> length(CAST(${text} AS BLOB)) OR instr(${marked}, char(1)) > 0)`;
}

/** The index of those rows (recap/rows.ts); defined in EVENT_INDEXES. */
export const WITHHELD_INDEX = "idx_execution_events_recap_withheld";

/** Events whose type names a handoff (`handoff`, `live_handoff`, …), as runtime:status counts them. */
export const HANDOFF_TERM = "event_type LIKE '%handoff%'";

/**
 * The part of a recap window a row belongs to: its harness session, or for a row recorded without one, its run
 * (spec 5.4 W: the session's rows and its run's rows without a session id). The recap's own indexes are keyed by
 * it, so one index serves both parts; queries add the exact condition, so a session id that equals a run key only
 * shares an index range, never a result.
 */
export function scopeTerm(alias: string): string {
  return `COALESCE(${alias}harness_session_id, ${alias}run_key)`;
}

/**
 * Created with the schema (schema.ts) and by the migration to version 2:
 * - session_type: one kind of event of a harness session (the recap's activations, messages, files and markers;
 *   the dashboard's per-session reads);
 * - source_type: one kind of event of one writer since a time (context:guard's newest brief, context:usage's
 *   window, the newest guard events);
 * - recap_steps / recap_plans / recap_notes: the few rows of a recap window's part a checkpoint reads
 *   (recap/rows.ts);
 * - span_files: the newest row of every file of a recap span too long to read whole (recap/rows.ts); a store
 *   made before it lacks it until a migration adds it, and the recap then reads the span's files directly (the
 *   same rows, at the cost of reading the span);
 * - recap_withheld: the rows of a recap window whose command or file the sanitiser may withhold (a few in a
 *   session of a hundred thousand), from which a long window's checkpoint counts them (recap/rows.ts
 *   longWindowRows); a store without it gives the same text from the candidates of every command and file;
 * - unsessioned / unsessioned_type: a run's rows without a harness session id (the other part of the window);
 * - handoff, tokens: runtime:status's handoff counts and live:status's latest token count.
 */
export const EVENT_INDEXES: readonly string[] = [
  "CREATE INDEX IF NOT EXISTS idx_execution_events_session_type ON execution_events(harness_session_id, event_type, id)",
  "CREATE INDEX IF NOT EXISTS idx_execution_events_source_type ON execution_events(source, event_type, created_at)",
  `CREATE INDEX IF NOT EXISTS idx_execution_events_recap_steps ON execution_events(${scopeTerm("")}, ${stepKey("")}, id) WHERE event_type = 'step_done'`,
  `CREATE INDEX IF NOT EXISTS ${SPAN_FILES_INDEX} ON execution_events(${scopeTerm("")}, ${fileKey("")}, id) WHERE event_type = 'artifact'`,
  `CREATE INDEX IF NOT EXISTS ${WITHHELD_INDEX} ON execution_events(${scopeTerm("")}, id) WHERE event_type IN ('step_done', 'artifact') AND ${withheldCandidateTerm("")}`,
  `CREATE INDEX IF NOT EXISTS idx_execution_events_recap_plans ON execution_events(${scopeTerm("")}, id) WHERE event_type = 'note' AND ${planNoteTerm("")}`,
  `CREATE INDEX IF NOT EXISTS idx_execution_events_recap_notes ON execution_events(${scopeTerm("")}, id) WHERE run_key IS NOT NULL AND ${noteTerm("")}`,
  "CREATE INDEX IF NOT EXISTS idx_execution_events_unsessioned ON execution_events(run_key, id) WHERE harness_session_id IS NULL",
  "CREATE INDEX IF NOT EXISTS idx_execution_events_unsessioned_type ON execution_events(run_key, event_type, id) WHERE harness_session_id IS NULL",
  `CREATE INDEX IF NOT EXISTS idx_execution_events_handoff ON execution_events(task_key, created_at) WHERE ${HANDOFF_TERM}`,
  "CREATE INDEX IF NOT EXISTS idx_execution_events_tokens ON execution_events(run_key, id) WHERE token_count IS NOT NULL",
];
