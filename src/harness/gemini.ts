/**
 * Gemini CLI 0.61.0 (`--source=gemini`; installed by src/install/gemini.ts). What its hooks send
 * (real-harnesses §4, checked against the pinned bundle `@google/gemini-cli/bundle`, `hookRunner.js`, `shell.js`):
 * - every event: `session_id`, `transcript_path`, `cwd`, `hook_event_name`, `timestamp`;
 * - `BeforeTool`/`AfterTool`: `tool_name`, `tool_input`; AfterTool `tool_response {llmContent, returnDisplay,
 *   error?{message,type}}` — a tool that failed (a `replace` whose `old_string` is not there) still arrives as
 *   AfterTool, with `error`;
 * - `run_shell_command`'s result is `Output: …` followed by Gemini's own lines (`Error:`, `Exit Code: N` only when
 *   N ≠ 0, `Signal:`, `Background PIDs:`, `Process Group PGID:`), usually inside `<untrusted_context>`;
 * - `BeforeAgent {prompt}`, `AfterAgent {prompt, prompt_response, stop_hook_active}`, `SessionStart {source}`,
 *   `SessionEnd {reason}`;
 * - `PreCompress {trigger}` fires before essentially every model call, whether or not a compression follows, so it
 *   records nothing; a compression shows in the next `BeforeModel`: `llm_request.messages[0]` then carries the
 *   `<state_snapshot>` the summariser wrote, on every request until the next compression.
 * Tools: `write_file {file_path, content}`, `replace {file_path, instruction, old_string, new_string}`,
 * `run_shell_command {command, description, dir_path?}`, `write_todos {todos[{description, status}]}`,
 * `invoke_agent {agent_name, prompt}`, `activate_skill {name}`; read-only `read_file read_many_files glob
 * grep_search list_directory google_web_search web_fetch`; `complete_task` ends a sub-agent; MCP tools are
 * `mcp_<server>_<tool>`.
 */
import * as v from "valibot";
import { eventFromEnvelope, firstText, mcpAsClaude, parseEnvelope } from "./common.ts";
import type { Adapter, HookEvent, PlanItem, ToolCall, ToolResponse } from "./types.ts";

const TOOL_ALIASES: Readonly<Record<string, string>> = {
  write_file: "Write",
  replace: "Edit",
  run_shell_command: "Bash",
  write_todos: "TodoWrite",
  invoke_agent: "Task",
  activate_skill: "Skill",
  // Read-only (searches and fetches included) and the sub-agent's own end: mapped onto ignored names (spec 4.3).
  read_file: "Read",
  read_many_files: "Read",
  google_web_search: "Read",
  web_fetch: "Read",
  complete_task: "Read",
  glob: "Glob",
  grep_search: "Grep",
  search_file_content: "Grep",
  list_directory: "LS",
};

/** Gemini events onto the normalised names; the ones that record nothing map onto an event that records nothing. */
const EVENTS: Readonly<Record<string, string>> = {
  BeforeTool: "PreToolUse",
  AfterTool: "PostToolUse",
  BeforeAgent: "UserPromptSubmit",
  AfterAgent: "Stop",
  SessionStart: "SessionStart",
  SessionEnd: "SessionEnd",
};
const RECORDS_NOTHING = "Notification";

function buildSchema() {
  const text = v.fallback(v.optional(v.string()), undefined);
  const anything = v.optional(v.unknown());
  const list = v.fallback(v.optional(v.array(v.unknown())), undefined);
  const record = v.fallback(v.optional(v.record(v.string(), v.unknown())), undefined);
  return {
    envelope: v.object({ prompt_response: text, tool_response: record, llm_request: record }),
    response: v.object({ llmContent: anything, error: anything }),
    request: v.object({ messages: list }),
    message: v.object({ content: anything }),
    todo: v.object({ description: text, status: text }),
    input: v.object({ todos: list, agent_name: text }),
  };
}
let schema: ReturnType<typeof buildSchema> | undefined;

function parse<T extends v.GenericSchema>(of: T, value: unknown): v.InferOutput<T> | null {
  const parsed = v.safeParse(of, value);
  return parsed.success ? parsed.output : null;
}

/** `llmContent`: a string, or parts whose `text` fields are joined. */
function contentText(value: unknown): string {
  if (typeof value === "string") return value;
  const parts = Array.isArray(value) ? value : value !== null && typeof value === "object" ? [value] : [];
  return parts
    .map((part) => (part !== null && typeof part === "object" && typeof (part as { text?: unknown }).text === "string" ? (part as { text: string }).text : ""))
    .filter(Boolean)
    .join("\n");
}

const UNTRUSTED = /^\s*<untrusted_context>\n?([\s\S]*?)\n?<\/untrusted_context>\s*$/;
/** Gemini's own lines after a command's output, in the order shell.js writes them. */
const TRAILER = ["Error:", "Exit Code:", "Signal:", "Background PIDs:", "Process Group PGID:"] as const;
const CANCELLED = /^Command (?:was cancelled|was automatically cancelled|moved to background)/;

/**
 * A `run_shell_command` result: the output, and the exit code Gemini's trailer says — read from the end, so a
 * command printing `Exit Code: 5` itself is not taken for Gemini's line. No `Exit Code:` line means 0 unless an
 * `Error:` or `Signal:` line says it did not run to its end; a cancelled or backgrounded command has none.
 */
export function shellResult(llmContent: string): ToolResponse {
  const body = UNTRUSTED.exec(llmContent)?.[1] ?? llmContent;
  if (CANCELLED.test(body)) return { text: body, exitCode: null, structured: true, interrupted: true };
  const lines = body.split("\n");
  const found = new Map<string, string>();
  let end = lines.length;
  let next: number = TRAILER.length;
  while (end > 0) {
    const line = lines[end - 1] as string;
    const index = TRAILER.findIndex((prefix, i) => i < next && line.startsWith(prefix));
    if (index < 0) break;
    found.set(TRAILER[index] as string, line.slice((TRAILER[index] as string).length).trim());
    next = index;
    end--;
  }
  const output = lines.slice(0, end).join("\n").replace(/^Output: /, "").replace(/^\(empty\)$/, "");
  const code = found.get("Exit Code:");
  const stopped = found.has("Error:") || found.has("Signal:");
  const exitCode = code !== undefined && /^-?\d+$/.test(code) ? Number(code) : stopped ? null : 0;
  return { text: output, exitCode, structured: true, interrupted: found.has("Signal:") };
}

function todoItems(todos: readonly unknown[] | undefined): PlanItem[] | null {
  if (!todos) return null;
  schema ??= buildSchema();
  const items: PlanItem[] = [];
  for (const entry of todos) {
    const todo = parse(schema.todo, entry);
    if (todo) items.push({ text: todo.description ?? "", status: todo.status ?? "pending" });
  }
  return items;
}

function refineTool(tool: ToolCall, input: Record<string, unknown> | undefined): ToolCall {
  if (tool.name !== "TodoWrite" && tool.name !== "Task") return tool;
  schema ??= buildSchema();
  const extras = parse(schema.input, input ?? {});
  if (tool.name === "TodoWrite") return { ...tool, plan: todoItems(extras?.todos) ?? tool.plan };
  return { ...tool, subagentType: tool.subagentType ?? firstText(extras?.agent_name) };
}

/** The `<state_snapshot>` block at the head of a model request (the conversation's first message), or null. */
export function stateSnapshot(llmRequest: Record<string, unknown> | undefined): string | null {
  if (!llmRequest) return null;
  schema ??= buildSchema();
  const first = parse(schema.request, llmRequest)?.messages?.[0];
  const content = contentText(parse(schema.message, first)?.content);
  const start = content.indexOf("<state_snapshot>");
  const end = start < 0 ? -1 : content.indexOf("</state_snapshot>", start);
  return end < 0 ? null : content.slice(start, end + "</state_snapshot>".length);
}

/** A short digest naming one compression (Bun.hash: no crypto module on the per-model-call path). */
function snapshotKey(snapshot: string): string {
  return Bun.hash(snapshot).toString(16).padStart(16, "0");
}

/** BeforeModel: a compaction when the request opens with a snapshot (persist keeps the first sighting of each). */
function beforeModel(base: HookEvent, llmRequest: Record<string, unknown> | undefined): HookEvent {
  const snapshot = stateSnapshot(llmRequest);
  if (snapshot === null) return { ...base, event: RECORDS_NOTHING };
  return { ...base, event: "PreCompact", trigger: "state_snapshot", compactionKey: snapshotKey(snapshot) };
}

export const geminiAdapter: Adapter = (raw) => {
  const envelope = parseEnvelope(raw);
  schema ??= buildSchema();
  const extra = parse(schema.envelope, raw) ?? {};
  const name = firstText(envelope.hook_event_name)?.trim() ?? null;
  const toolName = firstText(envelope.tool_name)?.trim() ?? null;
  const base = eventFromEnvelope(envelope, { harness: "gemini", toolAliases: TOOL_ALIASES, toolName: mcpAsClaude(toolName) ?? toolName });
  if (name === "BeforeModel") return beforeModel(base, extra.llm_request);
  const response = extra.tool_response ? parse(schema.response, extra.tool_response) : null;
  const error = errorMessage(response?.error);
  const failed = name === "AfterTool" && error !== null;
  const tool = base.tool ? refineTool(base.tool, envelope.tool_input) : null;
  const text = contentText(response?.llmContent);
  const toolResponse = !response ? null : tool?.name === "Bash" ? shellResult(text) : { text, exitCode: null, structured: true, interrupted: false };
  return {
    ...base,
    event: failed ? "PostToolUseFailure" : (name && EVENTS[name]) ?? (name === null ? null : RECORDS_NOTHING),
    tool,
    response: toolResponse,
    error,
    lastMessage: firstText(extra.prompt_response),
  };
};

function errorMessage(value: unknown): string | null {
  if (value !== null && typeof value === "object") {
    const { message, type } = value as { message?: unknown; type?: unknown };
    if (typeof message === "string" && message.trim()) return message;
    if (typeof type === "string" && type.trim()) return type;
  }
  return typeof value === "string" && value.trim() ? value : null;
}
