/**
 * Plans kept task by task (Claude Code 2.1.3xx `TaskCreate` / `TaskUpdate`, the `TaskCreated` event): every change
 * is folded, inside the write transaction, into the plan the session's previous task note holds, and the new note
 * carries the whole plan with the same `todos` / `done` / `total` / `summary` as a TodoWrite note (spec 4.8), so the
 * recap and the dashboard read one shape.
 *
 * Source of truth: the hook payloads, per harness session. Claude Code also keeps `$CLAUDE_CONFIG_DIR/tasks/<session>/`
 * files, but they sit in the user's HOME in an undocumented format, a task list there can be shared between
 * sessions (`CLAUDE_CODE_TASK_LIST_ID`), and the payload is what the harness tells hooks; the files are not read.
 * A `TaskCreated` event and the `TaskCreate` call that follows it name the same id: the second changes nothing
 * and is not stored.
 */
import type { Database } from "bun:sqlite";
import type { TaskChange } from "../harness/types.ts";
import { JSON_READ_MAX, within } from "../store/bounded.ts";
import { parseJsonObject } from "../store/records.ts";
import { normalizeStatus } from "./classify.ts";

export type TaskItem = { id: string; content: string; status: "completed" | "in_progress" | "pending" };

/** Spec 4.3: at most 50 items per plan note. */
export const MAX_TASKS = 50;
const TASK_TOOLS = ["TaskCreate", "TaskUpdate", "TaskCreated"] as const;

function itemsOf(payloadJson: string | null): TaskItem[] {
  const todos = parseJsonObject(payloadJson)?.todos;
  if (!Array.isArray(todos)) return [];
  const items: TaskItem[] = [];
  for (const todo of todos) {
    if (todo === null || typeof todo !== "object") continue;
    const { id, content, status } = todo as Record<string, unknown>;
    if (typeof id === "string" && typeof content === "string") items.push({ id, content, status: normalizeStatus(typeof status === "string" ? status : "") });
  }
  return items;
}

/** The previous plan's payload, within its bound: a committed store's value can be far larger than the file. */
const PLAN_PAYLOAD = within("payload_json", JSON_READ_MAX);

/**
 * The plan of the session's newest task note, oldest task first: of its harness session, else (a payload without a
 * session id) of the run's rows without one, through the index that holds each (session_type, unsessioned_type).
 */
export function previousTasks(db: Database, harnessSessionId: string | null, runKey: string): TaskItem[] {
  const tools = TASK_TOOLS.map(() => "?").join(", ");
  const row = harnessSessionId
    ? db.query(`SELECT ${PLAN_PAYLOAD} AS payload_json FROM execution_events WHERE harness_session_id = ? AND event_type = 'note' AND tool_name IN (${tools}) ORDER BY id DESC LIMIT 1`).get(harnessSessionId, ...TASK_TOOLS)
    : db.query(`SELECT ${PLAN_PAYLOAD} AS payload_json FROM execution_events WHERE run_key = ? AND harness_session_id IS NULL AND event_type = 'note' AND tool_name IN (${tools}) ORDER BY id DESC LIMIT 1`).get(runKey, ...TASK_TOOLS);
  return itemsOf((row as { payload_json: string | null } | null)?.payload_json ?? null);
}

/** A create without an id takes the next number, as Claude Code numbers its tasks. */
function nextId(items: readonly TaskItem[]): string {
  const numbers = items.map((item) => Number.parseInt(item.id, 10)).filter(Number.isFinite);
  return String(Math.max(0, ...numbers) + 1);
}

/** The plan after one change, or null when the change leaves it as it was. */
export function applyTaskChange(items: readonly TaskItem[], change: TaskChange): TaskItem[] | null {
  if (change.op === "create") {
    const id = change.id ?? nextId(items);
    if (items.some((item) => item.id === id) || items.length >= MAX_TASKS) return null;
    return [...items, { id, content: change.subject ?? `Task ${id}`, status: normalizeStatus(change.status ?? "pending") }];
  }
  const index = items.findIndex((item) => item.id === change.id);
  if (change.status?.trim().toLowerCase() === "deleted") return index < 0 ? null : items.filter((_, i) => i !== index);
  const id = change.id as string;
  const current = index < 0 ? null : (items[index] as TaskItem);
  // An update of a task created before the hooks saw the plan still counts, under the subject it gives (or its id).
  if (!current && items.length >= MAX_TASKS) return null;
  const next: TaskItem = {
    id,
    content: change.subject ?? current?.content ?? `Task ${id}`,
    status: change.status ? normalizeStatus(change.status) : (current?.status ?? "pending"),
  };
  if (current && current.content === next.content && current.status === next.status) return null;
  return current ? items.map((item, i) => (i === index ? next : item)) : [...items, next];
}

/** The note payload of a plan (TodoWrite's shape, each item keeping its task id). */
export function taskPlanPayload(tool: string, items: readonly TaskItem[]): Record<string, unknown> {
  const done = items.filter((item) => item.status === "completed").length;
  return { tool, todos: items.map((item) => ({ id: item.id, content: item.content, status: item.status })), done, total: items.length, summary: `Tasks: ${done} of ${items.length} done` };
}
