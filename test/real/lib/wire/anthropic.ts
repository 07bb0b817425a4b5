/**
 * The Anthropic Messages API as Claude Code speaks it (`POST /v1/messages?beta=true`, streaming): `message_start`,
 * `content_block_start` / `content_block_delta` (`text_delta`, `input_json_delta` for `tool_use`) /
 * `content_block_stop`, `message_delta` with `stop_reason` and usage, `message_stop`. Side requests:
 * `/v1/messages/count_tokens` and anything that is not a Messages call.
 */
import type { Reply, RequestKind, Wire } from "../server.ts";

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function blocks(content: unknown): Json[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? content.filter(isObject) : [];
}

/** Every text a block carries to the model: text, tool results (nested), tool inputs. */
function blockText(block: Json): string {
  if (typeof block.text === "string") return block.text;
  if (block.type === "tool_result") return blocks(block.content).map(blockText).join("\n");
  if (block.type === "tool_use") return JSON.stringify(block.input ?? {});
  return "";
}

function messages(body: unknown): Json[] {
  return isObject(body) && Array.isArray(body.messages) ? body.messages.filter(isObject) : [];
}

function messageText(message: Json): string {
  return blocks(message.content).map(blockText).join("\n");
}

function systemText(body: unknown): string {
  if (!isObject(body)) return "";
  return blocks(body.system).map(blockText).join("\n");
}

/**
 * Claude Code asks for its compaction summary with an ordinary Messages call whose last user message is its
 * summarisation prompt; the scripted model answers those from the script's `compactions`.
 */
const COMPACT_PROMPT = /create a detailed summary of the conversation|Your task is to create a detailed summary/i;

export const anthropicWire: Wire = {
  name: "anthropic-messages",

  classify(path: string, body: unknown): RequestKind {
    if (!/^\/v1\/messages\/?$/.test(path)) return "side";
    const all = messages(body);
    const last = all.at(-1);
    if (last && last.role === "user" && COMPACT_PROMPT.test(messageText(last))) return "compact";
    return "turn";
  },

  side(path: string): Response {
    if (path.endsWith("/count_tokens")) return Response.json({ input_tokens: 1_000 });
    return Response.json({ type: "error", error: { type: "not_found_error", message: `not scripted: ${path}` } }, { status: 404 });
  },

  render(reply: Reply, body: unknown, counter: () => number): Response {
    const id = counter();
    const model = isObject(body) && typeof body.model === "string" ? body.model : "claude-fake";
    const content: Json[] = [];
    if (reply.text !== undefined) content.push({ type: "text", text: reply.text });
    for (const tool of reply.tools ?? []) content.push({ type: "tool_use", id: tool.id ?? `toolu_fake_${id}_${content.length}`, name: tool.name, input: tool.input });
    const stop = (reply.tools?.length ?? 0) > 0 ? "tool_use" : "end_turn";
    const usage = { input_tokens: reply.inputTokens ?? 1_200, output_tokens: reply.outputTokens ?? 40, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    const message = { id: `msg_fake_${id}`, type: "message", role: "assistant", model, content, stop_reason: stop, stop_sequence: null, usage };
    if (!(isObject(body) && body.stream === true)) return Response.json(message);
    const event = (type: string, data: Json) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
    const chunks = [event("message_start", { message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } })];
    content.forEach((block, index) => {
      if (block.type === "text") {
        chunks.push(
          event("content_block_start", { index, content_block: { type: "text", text: "" } }),
          event("content_block_delta", { index, delta: { type: "text_delta", text: block.text } }),
        );
      } else {
        chunks.push(
          event("content_block_start", { index, content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } }),
          event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } }),
        );
      }
      chunks.push(event("content_block_stop", { index }));
    });
    chunks.push(event("message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } }), event("message_stop", {}));
    return new Response(chunks.join(""), { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
  },

  sentText(body: unknown): string {
    return [systemText(body), ...messages(body).map(messageText)].join("\n");
  },

  lastSentText(body: unknown): string {
    const last = messages(body).at(-1);
    return last ? messageText(last) : "";
  },

  firstSentText(body: unknown): string {
    const first = messages(body)[0];
    return first ? messageText(first) : "";
  },
};

export type ToolResult = { id: string; text: string; isError: boolean };

function resultsOf(message: Json): ToolResult[] {
  return blocks(message.content)
    .filter((block) => block.type === "tool_result")
    .map((block) => ({ id: String(block.tool_use_id ?? ""), text: blockText(block), isError: block.is_error === true }));
}

/**
 * The `tool_result` blocks the harness sent after the model's newest message (what it answered the last calls);
 * Claude Code may add user messages of its own (reminders) after them.
 */
export function lastToolResults(body: unknown): ToolResult[] {
  const all = messages(body);
  const after = all.slice(all.findLastIndex((message) => message.role === "assistant") + 1);
  return after.flatMap(resultsOf);
}

/** Every `tool_result` of the conversation a request carries. */
export function toolResults(body: unknown): ToolResult[] {
  return messages(body).flatMap(resultsOf);
}

/** Tool names the request offers the model. */
export function offeredTools(body: unknown): string[] {
  return isObject(body) && Array.isArray(body.tools) ? body.tools.filter(isObject).map((tool) => String(tool.name ?? "")) : [];
}

export function systemOf(body: unknown): string {
  return systemText(body);
}
