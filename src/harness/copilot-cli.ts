/**
 * What GitHub Copilot CLI 1.0.102 sends the hooks of `.github/hooks/*.json` (the Claude-named PascalCase events;
 * real-harnesses §5, checked against the pinned binary driven by a scripted model) beyond VS Code's shapes:
 * - PostToolUse carries `tool_result {result_type, text_result_for_llm}`, not `tool_response`; a shell result ends
 *   with `<shellId: N completed with exit code K>` and is `success` whatever K is;
 * - tools: `Write {path, file_text}`, `Edit {path, old_str, new_str}`, `Bash {command, description}`,
 *   `Agent {description, prompt, agent_type, name}` (the sub-agent tool), `sql {description, query}` (its plan is the
 *   `todos` table of the session's `session.db`), read-only `view grep glob read_bash list_bash …`;
 * - a sub-agent's events carry its own `session_id` plus `agent_id`, `agent_type`, `parent_agent_id`: its Stop ends no
 *   turn, and its tool calls belong to the parent's session.
 */
import { lstatSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { homeDir } from "../core/home.ts";
import type { PlanItem, ToolResponse } from "./types.ts";

function buildSchema() {
  const text = v.fallback(v.optional(v.string()), undefined);
  const record = v.fallback(v.optional(v.record(v.string(), v.unknown())), undefined);
  return {
    envelope: v.object({ tool_result: record, agent_id: text, parent_agent_id: text }),
    result: v.object({ result_type: text, text_result_for_llm: text }),
    input: v.object({ query: text, agent_type: text }),
    todo: v.object({ title: v.string(), status: v.fallback(v.string(), "pending") }),
  };
}
let schema: ReturnType<typeof buildSchema> | undefined;

function parse<T extends v.GenericSchema>(of: T, value: unknown): v.InferOutput<T> | null {
  const parsed = v.safeParse(of, value);
  return parsed.success ? parsed.output : null;
}

export type CopilotCliFacts = {
  response: ToolResponse | null;
  /** `result_type` other than success: the tool did not do its work. */
  failed: boolean;
  /** Set on a sub-agent's events. */
  agentId: string | null;
  parentSession: string | null;
};

const SHELL_END = /<shellId: [^>]*? completed with exit code (-?\d+)>\s*$/;
const FAILED_RESULTS = new Set(["failure", "error", "rejected", "denied"]);

/** The CLI-only envelope fields; all null for a VS Code payload. */
export function copilotCliFacts(raw: Record<string, unknown>, isShell: boolean): CopilotCliFacts {
  schema ??= buildSchema();
  const envelope = parse(schema.envelope, raw);
  const result = envelope?.tool_result ? parse(schema.result, envelope.tool_result) : null;
  const text = result?.text_result_for_llm ?? "";
  const code = isShell ? SHELL_END.exec(text)?.[1] : undefined;
  const response: ToolResponse | null = result
    ? { text: code === undefined ? text : text.replace(SHELL_END, "").trimEnd(), exitCode: code === undefined ? null : Number(code), structured: true, interrupted: false }
    : null;
  const agentId = envelope?.agent_id?.trim() || null;
  return { response, failed: FAILED_RESULTS.has(result?.result_type?.trim().toLowerCase() ?? ""), agentId, parentSession: agentId ? envelope?.parent_agent_id?.trim() || null : null };
}

/** The sub-agent type of an `Agent` call (`agent_type`). */
export function agentTypeOf(input: Record<string, unknown> | undefined): string | null {
  schema ??= buildSchema();
  return parse(schema.input, input ?? {})?.agent_type?.trim() || null;
}

const TODO_WRITE = /\b(?:insert|update|delete|replace)\b[\s\S]*\btodos\b|\btodos\b[\s\S]*\bset\b/i;
/** Session ids are UUIDs; anything else never becomes part of a path. */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
/** How long a read of Copilot CLI's session database waits for a lock its writer holds. */
const SESSION_DB_WAIT_MS = 250;
const SESSION_DB_MAX = 64 * 1024 * 1024;
const TODOS_MAX = 200;

/** Whether an `sql` call changed the plan (a write that names the `todos` table). */
export function changesTodos(input: Record<string, unknown> | undefined): boolean {
  schema ??= buildSchema();
  const query = parse(schema.input, input ?? {})?.query ?? "";
  return TODO_WRITE.test(query);
}

/**
 * The plan as the `todos` table of `$COPILOT_HOME/session-state/<session>/session.db` holds it after the call, in
 * insertion order; null when it cannot be read (no such session, not a plain file, locked, another schema).
 */
export function sessionTodos(session: string | null, env: Readonly<Record<string, string | undefined>>): PlanItem[] | null {
  if (!session || !SESSION_ID.test(session)) return null;
  const home = env.COPILOT_HOME?.trim() || join(homeDir(env), ".copilot");
  const path = join(home, "session-state", session, "session.db");
  try {
    const stat = lstatSync(path);
    if (!stat.isFile() || stat.size > SESSION_DB_MAX) return null;
    // Loaded only for a plan change: no other hook pays for it.
    const { Database } = require("bun:sqlite") as typeof import("bun:sqlite");
    const db = new Database(path, { readonly: true });
    try {
      // Copilot CLI may be writing the plan this very moment: wait a little, as the store's readers wait, rather
      // than miss it (a hook's budget allows no more).
      db.exec(`PRAGMA busy_timeout = ${SESSION_DB_WAIT_MS}`);
      const rows = db.query(`SELECT title, status FROM todos ORDER BY rowid LIMIT ${TODOS_MAX}`).all();
      schema ??= buildSchema();
      const todos = schema.todo;
      return rows.flatMap((row) => {
        const todo = parse(todos, row);
        return todo ? [{ text: todo.title, status: todo.status }] : [];
      });
    } finally {
      db.close();
    }
  } catch {
    return null;
  }
}
