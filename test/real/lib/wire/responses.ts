/**
 * The OpenAI Responses API as Codex CLI 0.169 speaks it with a custom provider (`wire_api = "responses"`):
 * `POST /v1/responses` with `stream: true`, answered by SSE `response.created`, `response.output_item.added` /
 * `response.output_item.done` per item (`message` with `output_text`, `function_call` with JSON `arguments`,
 * `custom_tool_call` with raw `input` for the freeform `apply_patch` tool) and `response.completed` with usage (the
 * reported input tokens drive automatic compaction). With a custom provider Codex compacts locally: an ordinary
 * `/responses` request whose last user message is its checkpoint-compaction prompt.
 */
import type { Reply, RequestKind, Wire } from "../server.ts";

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Tools Codex offers as freeform (`type: "custom"`): the call carries the raw text under `input.input`. */
const CUSTOM_TOOLS: ReadonlySet<string> = new Set(["apply_patch"]);

/** Codex 0.169's local compaction prompt begins with this. */
const COMPACT_PROMPT = /You are performing a CONTEXT CHECKPOINT COMPACTION/;

export function inputItems(body: unknown): Json[] {
  return isObject(body) && Array.isArray(body.input) ? body.input.filter(isObject) : [];
}

/** The text an input item carries to the model: message parts, tool outputs, tool-call arguments. */
export function itemText(item: Json): string {
  if (Array.isArray(item.content)) return item.content.filter(isObject).map((part) => (typeof part.text === "string" ? part.text : "")).join("\n");
  if (typeof item.content === "string") return item.content;
  if (typeof item.output === "string") return item.output;
  if (typeof item.arguments === "string") return item.arguments;
  if (typeof item.input === "string") return item.input;
  return "";
}

function instructions(body: unknown): string {
  return isObject(body) && typeof body.instructions === "string" ? body.instructions : "";
}

function sse(type: string, data: Json): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

export const responsesWire: Wire = {
  name: "openai-responses",

  classify(path: string, body: unknown): RequestKind {
    if (!/^\/v1\/responses\/?$/.test(path)) return "side";
    const lastUser = inputItems(body).findLast((item) => item.type === "message" && item.role === "user");
    return lastUser && COMPACT_PROMPT.test(itemText(lastUser)) ? "compact" : "turn";
  },

  side(path: string): Response {
    return Response.json({ error: { type: "not_found", message: `not scripted: ${path}` } }, { status: 404 });
  },

  render(reply: Reply, _body: unknown, counter: () => number): Response {
    const id = counter();
    const items: Json[] = [];
    if (reply.text !== undefined) {
      items.push({ type: "message", id: `msg_fake_${id}`, role: "assistant", status: "completed", content: [{ type: "output_text", text: reply.text, annotations: [] }] });
    }
    (reply.tools ?? []).forEach((tool, index) => {
      const callId = tool.id ?? `call_fake_${id}_${index}`;
      if (CUSTOM_TOOLS.has(tool.name)) items.push({ type: "custom_tool_call", id: `ctc_fake_${id}_${index}`, call_id: callId, name: tool.name, input: String(tool.input.input ?? ""), status: "completed" });
      else items.push({ type: "function_call", id: `fc_fake_${id}_${index}`, call_id: callId, name: tool.name, arguments: JSON.stringify(tool.input), status: "completed" });
    });
    const inputTokens = reply.inputTokens ?? 1_200;
    const outputTokens = reply.outputTokens ?? 40;
    const usage = { input_tokens: inputTokens, input_tokens_details: { cached_tokens: 0 }, output_tokens: outputTokens, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: inputTokens + outputTokens };
    const response = { id: `resp_fake_${id}`, object: "response", status: "completed", output: items, usage };
    const chunks = [sse("response.created", { response: { ...response, status: "in_progress", output: [] } })];
    items.forEach((item, index) => chunks.push(sse("response.output_item.added", { output_index: index, item }), sse("response.output_item.done", { output_index: index, item })));
    chunks.push(sse("response.completed", { response }));
    return new Response(chunks.join(""), { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
  },

  sentText(body: unknown): string {
    return [instructions(body), ...inputItems(body).map(itemText)].join("\n");
  },

  lastSentText(body: unknown): string {
    const last = inputItems(body).at(-1);
    return last ? itemText(last) : "";
  },

  firstSentText(body: unknown): string {
    const first = inputItems(body).find((item) => item.type === "message" && item.role === "user");
    return first ? itemText(first) : "";
  },
};

/** What Codex sent the model back for one tool call (the `function_call_output` / `custom_tool_call_output`). */
export function toolOutputFor(body: unknown, callId: string): string | null {
  const found = inputItems(body).find((item) => (item.type === "function_call_output" || item.type === "custom_tool_call_output") && item.call_id === callId);
  return found ? itemText(found) : null;
}

/** The developer messages a request carries (where Codex puts a SessionStart hook's additionalContext). */
export function developerTexts(body: unknown): string[] {
  return inputItems(body).filter((item) => item.type === "message" && item.role === "developer").map(itemText);
}
