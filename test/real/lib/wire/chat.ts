/**
 * The OpenAI Chat Completions API (`POST <base>/chat/completions`) as AI-SDK-based harnesses speak it (OpenCode's
 * `@ai-sdk/openai-compatible`, Copilot CLI's provider mode): `messages` with `system`/`user`/`assistant`/`tool` roles,
 * `tools` of type `function`; a streaming answer is `chat.completion.chunk` events (a role delta, `content` deltas,
 * `tool_calls` deltas with the whole arguments, a `finish_reason`, then a chunk with `usage` and `[DONE]`).
 * Harness-neutral: which requests are a harness's compaction or side calls (titles) is told by the driver.
 */
import type { Reply, RequestKind, Wire } from "../server.ts";

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function messages(body: unknown): Json[] {
  return isObject(body) && Array.isArray(body.messages) ? body.messages.filter(isObject) : [];
}

/** `content` is a string or an array of parts (`{type: "text", text}`, images...). */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.filter(isObject).map((part) => (typeof part.text === "string" ? part.text : "")).filter(Boolean).join("\n");
}

type ToolCall = { id: string; name: string; arguments: string };

function toolCalls(message: Json): ToolCall[] {
  if (!Array.isArray(message.tool_calls)) return [];
  return message.tool_calls.filter(isObject).map((call) => {
    const fn = isObject(call.function) ? call.function : {};
    return { id: String(call.id ?? ""), name: String(fn.name ?? ""), arguments: typeof fn.arguments === "string" ? fn.arguments : JSON.stringify(fn.arguments ?? {}) };
  });
}

/** Everything one message carries to the model: its text, and a tool call's name and arguments. */
function messageText(message: Json): string {
  return [contentText(message.content), ...toolCalls(message).map((call) => `${call.name} ${call.arguments}`)].filter(Boolean).join("\n");
}

function systemText(body: unknown): string {
  return messages(body).filter((message) => message.role === "system" || message.role === "developer").map(messageText).join("\n");
}

function conversation(body: unknown): Json[] {
  return messages(body).filter((message) => message.role !== "system" && message.role !== "developer");
}

export type ChatWireOptions = {
  /** The harness's summary request (tested against the system text and the last user message). */
  compaction: RegExp;
  /** Model ids `GET <base>/models` lists (Copilot CLI asks). */
  models?: readonly string[];
  /** Side calls answered with `sideText` rather than a script step (tested against the system text). */
  side?: RegExp;
  sideText?: string;
};

function sse(chunks: Json[]): Response {
  const body = `${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join("")}data: [DONE]\n\n`;
  return new Response(body, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
}

function render(reply: Reply, body: unknown, counter: () => number): Response {
  const n = counter();
  const id = `chatcmpl-fake-${n}`;
  const model = isObject(body) && typeof body.model === "string" ? body.model : "fake";
  const created = Math.floor(Date.now() / 1000);
  const calls = (reply.tools ?? []).map((tool, index) => ({ index, id: tool.id ?? `call_fake_${n}_${index}`, type: "function", function: { name: tool.name, arguments: JSON.stringify(tool.input) } }));
  const finish = calls.length > 0 ? "tool_calls" : "stop";
  const prompt = reply.inputTokens ?? 1_200;
  const completion = reply.outputTokens ?? 40;
  const usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
  if (!(isObject(body) && body.stream === true)) {
    const message = { role: "assistant", content: reply.text ?? null, ...(calls.length > 0 ? { tool_calls: calls.map(({ index: _index, ...call }) => call) } : {}) };
    return Response.json({ id, object: "chat.completion", created, model, choices: [{ index: 0, message, finish_reason: finish }], usage });
  }
  const chunk = (choices: Json[], extra: Json = {}): Json => ({ id, object: "chat.completion.chunk", created, model, choices, ...extra });
  const chunks = [chunk([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }])];
  if (reply.text !== undefined) chunks.push(chunk([{ index: 0, delta: { content: reply.text }, finish_reason: null }]));
  for (const call of calls) chunks.push(chunk([{ index: 0, delta: { tool_calls: [call] }, finish_reason: null }]));
  chunks.push(chunk([{ index: 0, delta: {}, finish_reason: finish }]), chunk([], { usage }));
  return sse(chunks);
}

export function chatWire(options: ChatWireOptions): Wire {
  return {
    name: "chat-completions",

    classify(path: string, body: unknown): RequestKind {
      if (!/\/chat\/completions\/?$/.test(path)) return "side";
      const system = systemText(body);
      if (options.side?.test(system)) return "side";
      const last = conversation(body).at(-1);
      if (options.compaction.test(system) || (last?.role === "user" && options.compaction.test(messageText(last)))) return "compact";
      return "turn";
    },

    side(path: string, body: unknown): Response {
      if (/\/chat\/completions\/?$/.test(path)) return render({ text: options.sideText ?? "Bench title" }, body, () => 0);
      if (path.endsWith("/models")) return Response.json({ object: "list", data: (options.models ?? ["gpt-4.1"]).map((id) => ({ id, object: "model", owned_by: "bench" })) });
      return Response.json({ error: { message: `not scripted: ${path}`, type: "invalid_request_error" } }, { status: 404 });
    },

    render,

    sentText(body: unknown): string {
      return messages(body).map(messageText).join("\n");
    },

    lastSentText(body: unknown): string {
      const last = conversation(body).at(-1);
      return last ? messageText(last) : "";
    },

    firstSentText(body: unknown): string {
      const first = conversation(body)[0];
      return first ? messageText(first) : "";
    },
  };
}

export type ToolResult = { id: string; text: string };

/** Every `tool` message of a request, by tool call id (what the harness answered the model's calls). */
export function toolResults(body: unknown): ToolResult[] {
  return messages(body)
    .filter((message) => message.role === "tool")
    .map((message) => ({ id: String(message.tool_call_id ?? ""), text: contentText(message.content) }));
}

/** The tool results after the last assistant message (the answers to the model's newest calls). */
export function lastToolResults(body: unknown): ToolResult[] {
  const all = messages(body);
  const from = all.findLastIndex((message) => message.role === "assistant");
  return toolResults({ messages: all.slice(from + 1) });
}

/** Tool names the request offers the model. */
export function offeredTools(body: unknown): string[] {
  if (!isObject(body) || !Array.isArray(body.tools)) return [];
  return body.tools.filter(isObject).map((tool) => (isObject(tool.function) ? String(tool.function.name ?? "") : String(tool.name ?? "")));
}

/** The system messages of a request, in order (OpenCode sends what a plugin adds as a system message of its own). */
export function systemMessages(body: unknown): string[] {
  return messages(body).filter((message) => message.role === "system" || message.role === "developer").map(messageText);
}

export function systemOf(body: unknown): string {
  return systemText(body);
}
