/**
 * Reading a harness transcript (JSONL) at Stop time. No harness documents its format (harness-protocols §1.12,
 * §2.7), so three observed shapes are read:
 * - Claude Code: `{type:"user"|"assistant", message:{role, content: string | blocks}}`; tool calls are
 *   `tool_use` blocks `{name, input}`, their results `tool_result` blocks inside user lines.
 * - Codex rollouts: `{type:"response_item", payload:{type:"message", role, content:[{text}]}}`, tool calls
 *   `payload.type` `function_call` (`name`, JSON `arguments`) / `custom_tool_call` (`input`), results
 *   `function_call_output`.
 * - Copilot in VS Code (`GitHub.copilot-chat/transcripts/<id>.jsonl`): `{type:"user.message"|"assistant.message"|
 *   "tool.execution_start"|"tool.execution_complete", data:{…}}`.
 * Only the current turn matters to the Stop guards: the lines after the last real user message.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

export type ToolCall = { name: string; input: unknown };
export type Turn = {
  assistantText: string[];
  tools: ToolCall[];
  toolOutputs: string[];
  /**
   * The round was started by the harness, not the user: its newest prompt is a `<task-notification>` (Claude Code
   * hands an async sub-agent's result back that way, and a Stop round follows).
   */
  automatic: boolean;
  /** The turn starts before the window that was read (MAX_TURN_BYTES): what it did is not all known. */
  truncated: boolean;
};

/** Transcripts can be huge: at most this much of the tail is scanned for the tools a session called. */
export const MAX_TRANSCRIPT_BYTES = 32 * 1024 * 1024;
/**
 * The current turn is at the end, and everything in it is kept while it is read (its text, tool calls and outputs),
 * so its window is smaller: a turn that starts further back than this is judged incomplete (the guards then never
 * block on it), which keeps a hook's memory bounded whatever the transcript holds.
 */
export const MAX_TURN_BYTES = 4 * 1024 * 1024;

type Json = Record<string, unknown>;

/** Non-blocking: opening a FIFO for reading would wait for a writer forever; the fstat check then refuses it. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const block of content) {
    if (typeof block === "string") parts.push(block);
    else if (isObject(block) && typeof block.text === "string" && (block.type === undefined || /text$/.test(String(block.type)))) parts.push(block.text);
  }
  return parts.join("\n");
}

function parseArguments(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** Harness boilerplate that arrives with the user role but is not something the user typed. */
function isInjected(text: string): boolean {
  const start = text.trimStart();
  return /^<(environment_context|user_instructions|system-reminder|command-name|local-command-stdout)\b/.test(start) || start.startsWith("Caveat: ");
}

/** Claude Code's prompt that hands back an async sub-agent's result (real-harnesses §1). */
function isTaskNotification(text: string): boolean {
  return text.trimStart().startsWith("<task-notification>");
}

/**
 * `notification`: a `<task-notification>` prompt — not the user's turn, but the result of the sub-agent the turn
 * launched (its text counts as tool output) and the start of an automatic round.
 */
type Entry = { user: boolean; notification: boolean; text: string; tools: ToolCall[]; outputs: string[]; assistant: boolean };

/**
 * Claude Code lines whose `message` is a conversation message. Others carry copies or metadata with a `message`
 * too — `api-request-blob` repeats a request (with `role: "user"` and "Tool loaded." whenever a deferred tool is
 * loaded) and must never be read as the user's turn.
 */
const MESSAGE_LINE_TYPES: ReadonlySet<string> = new Set(["", "message", "user", "assistant"]);

/** One JSONL line → what it says (null for lines that carry nothing we use). */
function classify(line: Json): Entry | null {
  const entry: Entry = { user: false, notification: false, assistant: false, text: "", tools: [], outputs: [] };
  const type = typeof line.type === "string" ? line.type : "";
  if (type === "user.message" || type === "assistant.message" || type === "tool.execution_start" || type === "tool.execution_complete") {
    const data = isObject(line.data) ? line.data : {};
    if (type === "user.message") {
      entry.text = textOf(data.content);
      entry.user = entry.text.trim() !== "";
    } else if (type === "assistant.message") {
      entry.assistant = true;
      entry.text = textOf(data.content);
      if (Array.isArray(data.toolRequests)) {
        for (const request of data.toolRequests) {
          if (isObject(request) && typeof (request.toolName ?? request.name) === "string") {
            entry.tools.push({ name: String(request.toolName ?? request.name), input: parseArguments(request.arguments) });
          }
        }
      }
    } else if (type === "tool.execution_start" && typeof data.toolName === "string") {
      entry.tools.push({ name: data.toolName, input: parseArguments(data.arguments) });
    } else if (type === "tool.execution_complete") {
      entry.outputs.push(typeof data.result === "string" ? data.result : JSON.stringify(data.result ?? ""));
    }
    return entry;
  }
  if (type === "gemini" || (type === "user" && line.message === undefined && Array.isArray(line.content))) return geminiEntry(entry, type, line);
  const item = type === "response_item" && isObject(line.payload) ? line.payload : type === "" || type === "message" ? line : null;
  const message = isObject(line.message) && MESSAGE_LINE_TYPES.has(type) ? line.message : item;
  if (!message) return null;
  const role = typeof message.role === "string" ? message.role : type === "user" || type === "assistant" ? type : "";
  const itemType = typeof message.type === "string" ? message.type : "";
  if (itemType === "function_call" || itemType === "custom_tool_call" || itemType === "local_shell_call") {
    const name = typeof message.name === "string" ? message.name : itemType === "local_shell_call" ? "local_shell" : "";
    if (name) entry.tools.push({ name, input: parseArguments(message.arguments ?? message.input ?? message.action) });
    return entry;
  }
  if (itemType === "function_call_output" || itemType === "custom_tool_call_output") {
    entry.outputs.push(typeof message.output === "string" ? message.output : JSON.stringify(message.output ?? ""));
    return entry;
  }
  const content = message.content;
  if (role === "assistant") {
    entry.assistant = true;
    entry.text = textOf(content);
    if (Array.isArray(content)) {
      for (const block of content) {
        if (isObject(block) && block.type === "tool_use" && typeof block.name === "string") entry.tools.push({ name: block.name, input: block.input });
      }
    }
    return entry;
  }
  if (role === "user") {
    let toolResults = false;
    if (Array.isArray(content)) {
      for (const block of content) {
        if (!isObject(block) || block.type !== "tool_result") continue;
        toolResults = true;
        entry.outputs.push(textOf(block.content) || (typeof block.content === "string" ? block.content : ""));
      }
    }
    entry.text = textOf(content);
    const origin = isObject(line.origin) ? line.origin.kind : undefined;
    if (origin === "task-notification" || isTaskNotification(entry.text)) {
      entry.notification = true;
      entry.outputs.push(entry.text);
      return entry;
    }
    // A line answering tool calls is the harness talking, whatever text rides along; sidechain lines (a sub-agent's
    // conversation inlined by older Claude Code versions) and the compaction summary never end the turn either.
    // `promptSource: "system"` marks the other prompts the harness writes itself.
    entry.user =
      !toolResults &&
      line.isMeta !== true &&
      line.isSidechain !== true &&
      line.isCompactSummary !== true &&
      line.promptSource !== "system" &&
      entry.text.trim() !== "" &&
      !isInjected(entry.text);
    return entry;
  }
  return null;
}

/**
 * Gemini CLI 0.61.0 (`~/.gemini/tmp/<project>/chats/session-*.jsonl`): `{type:"user", content:[{text} |
 * {functionResponse}]}` and `{type:"gemini", content, toolCalls[{name, args}]}` (the same message id is written again
 * once its tool calls are known); `$set` lines restate the history and carry no type, so they are skipped.
 */
function geminiEntry(entry: Entry, type: string, line: Json): Entry {
  if (type === "gemini") {
    entry.assistant = true;
    entry.text = textOf(line.content);
    for (const call of Array.isArray(line.toolCalls) ? line.toolCalls : []) {
      if (isObject(call) && typeof call.name === "string") entry.tools.push({ name: call.name, input: call.args });
    }
    return entry;
  }
  const parts = (line.content as unknown[]).filter(isObject);
  const responses = parts.filter((part) => isObject(part.functionResponse));
  for (const part of responses) entry.outputs.push(JSON.stringify((part.functionResponse as Json).response ?? ""));
  entry.text = textOf(parts.filter((part) => typeof part.text === "string"));
  entry.user = responses.length === 0 && entry.text.trim() !== "" && !isInjected(entry.text);
  return entry;
}

function parseLine(text: string): Json | null {
  if (!text || text.charCodeAt(0) !== 123 /* { */) return null;
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

const CHUNK_BYTES = 256 * 1024;

/**
 * The lines of a file, last first, read in chunks from the end: at Stop time only the current turn is wanted,
 * so a multi-megabyte transcript costs a few chunks, not a full read. Splitting on the `\n` byte is safe in UTF-8.
 */
function* linesBackwardOfFile(fd: number, size: number, limit: number): Generator<string> {
  const floor = Math.max(0, size - limit);
  let position = size;
  let carry: Buffer = Buffer.alloc(0);
  while (position > floor) {
    const start = Math.max(floor, position - CHUNK_BYTES);
    const chunk = Buffer.allocUnsafe(position - start);
    let read = 0;
    while (read < chunk.length) {
      const n = readSync(fd, chunk, read, chunk.length - read, start + read);
      if (n <= 0) break;
      read += n;
    }
    position = start;
    const buffer = carry.length > 0 ? Buffer.concat([chunk.subarray(0, read), carry]) : chunk.subarray(0, read);
    let end = buffer.length;
    let newline = buffer.lastIndexOf(10, end - 1);
    while (newline >= 0) {
      yield buffer.toString("utf8", newline + 1, end);
      end = newline;
      newline = end > 0 ? buffer.lastIndexOf(10, end - 1) : -1;
    }
    carry = Buffer.from(buffer.subarray(0, end));
  }
  // A cut tail (file larger than the limit) starts mid-line: that partial line is dropped.
  if (floor === 0 && carry.length > 0) yield carry.toString("utf8");
}

/** Runs `read` over the lines of a regular file, last first, within `limit` bytes of its end; null when unreadable. */
function withLinesBackward<T>(path: string, limit: number, read: (lines: Iterable<string>, cut: boolean) => T): T | null {
  let fd: number | null = null;
  try {
    fd = openSync(path, OPEN_FLAGS);
    const stat = fstatSync(fd);
    if (!stat.isFile()) return null;
    return read(linesBackwardOfFile(fd, stat.size, limit), stat.size > limit);
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** The current turn: every line after the last real user message (the whole transcript when there is none). */
function turnFromLines(lines: Iterable<string>, cut: boolean): Turn {
  const turn: Turn = { assistantText: [], tools: [], toolOutputs: [], automatic: false, truncated: cut };
  const entries: Entry[] = [];
  for (const raw of lines) {
    const line = parseLine(raw.trim());
    if (!line) continue;
    const entry = classify(line);
    if (!entry) continue;
    if (entry.user) {
      turn.truncated = false;
      break;
    }
    // Read backwards, so a notification met before the user's message started the newest round.
    if (entry.notification) turn.automatic = true;
    entries.push(entry);
  }
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index] as Entry;
    if (entry.assistant && entry.text.trim()) turn.assistantText.push(entry.text);
    turn.tools.push(...entry.tools);
    turn.toolOutputs.push(...entry.outputs);
  }
  return turn;
}

function normalizeText(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Does the turn already hold the answer the Stop payload reports (`last_assistant_message`)? */
function turnHolds(turn: Turn, lastMessage: string): boolean {
  const wanted = normalizeText(lastMessage);
  return wanted === "" || normalizeText(turn.assistantText.join("\n")).includes(wanted);
}

/**
 * How long a Stop guard waits for the transcript to reach the answer it judges. Claude Code writes the file
 * asynchronously: at the first Stop of a short run 15–27 lines of ~30 were on disk (real-harnesses §1).
 */
const STOP_WAIT_MS = 3_000;

/** `incomplete`: why the turn could not be judged whole (for the guard's notice). */
export type StopTurn = { turn: Turn; complete: boolean; waitedMs: number; incomplete?: string };

/**
 * The current turn at Stop time. With the payload's `last_assistant_message`, the transcript is read again (every
 * 25 ms, up to 200 ms apart) until it holds that answer or `waitMs` pass: a lagging file is missing the turn's
 * last tool calls as well, and judging it would block an honest answer. `complete: false` = the file never caught
 * up. Null when the transcript cannot be read at all.
 */
export async function readStopTurn(path: string, lastMessage: string, waitMs = STOP_WAIT_MS): Promise<StopTurn | null> {
  const started = Date.now();
  let pause = 25;
  for (;;) {
    const turn = readTurn(path);
    const waitedMs = Date.now() - started;
    if (!turn) return null;
    // A turn longer than the window cannot be judged whole: waiting would not change that.
    if (turn.truncated) return { turn, complete: false, waitedMs, incomplete: `the turn is longer than the last ${MAX_TURN_BYTES / (1024 * 1024)} MiB of the transcript` };
    if (turnHolds(turn, lastMessage)) return { turn, complete: true, waitedMs };
    if (waitedMs >= waitMs) return { turn, complete: false, waitedMs, incomplete: `the transcript did not reach the answer within ${waitedMs} ms` };
    await Bun.sleep(Math.min(pause, waitMs - waitedMs));
    pause = Math.min(pause * 2, 200);
  }
}

/** The current turn of a transcript file, read from its end; null when the file cannot be read. */
export function readTurn(path: string): Turn | null {
  return withLinesBackward(path, MAX_TURN_BYTES, turnFromLines);
}

const TOOL_LINE = /tool_use|function_call|custom_tool_call|local_shell_call|tool\.execution_start|toolRequests/;

/**
 * Names of every tool called in the transcript's last MAX_TRANSCRIPT_BYTES (lower-cased), read in chunks so memory
 * stays bounded; null when the file cannot be read.
 */
export function toolNamesOfFile(path: string): Set<string> | null {
  return withLinesBackward(path, MAX_TRANSCRIPT_BYTES, (lines) => {
    const names = new Set<string>();
    for (const raw of lines) {
      if (!TOOL_LINE.test(raw)) continue;
      const line = parseLine(raw.trim());
      const entry = line ? classify(line) : null;
      for (const tool of entry?.tools ?? []) names.add(tool.name.toLowerCase());
    }
    return names;
  });
}
