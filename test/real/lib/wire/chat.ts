/**
 * OpenAI Chat Completions as the harnesses that use a custom provider speak it (Copilot CLI 1.0.102, OpenCode's
 * openai-compatible provider): `POST /v1/chat/completions`, streamed as `chat.completion.chunk` events (`delta.content`,
 * `delta.tool_calls`, `finish_reason`, then a usage chunk and `[DONE]`), or one `chat.completion` when `stream` is not
 * set. Harness-neutral: what marks a harness's own compaction request is given by the caller.
 */
import type { Reply, RequestKind, Wire } from "../server.ts";

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function messages(body: unknown): Json[] {
  return isObject(body) && Array.isArray(body.messages) ? body.messages.filter(isObject) : [];
}

function messageText(message: Json): string {
  const content = message.content;
  const text = typeof content === "string" ? content : Array.isArray(content) ? content.filter(isObject).map((part) => (typeof part.text === "string" ? part.text : "")).join("\n") : "";
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls.filter(isObject).map((call) => (isObject(call.function) ? String(call.function.arguments ?? "") : "")) : [];
  return [text, ...calls].filter(Boolean).join("\n");
}

export type ChatWireOptions = {
  /** The harness's compaction request: its last user message matches. */
  compactPrompt?: RegExp;
  /** Model ids `GET /v1/models` lists. */
  models?: readonly string[];
};

export function chatWire(options: ChatWireOptions = {}): Wire {
  return {
    name: "chat-completions",

    classify(path: string, body: unknown): RequestKind {
      if (!path.endsWith("/chat/completions")) return "side";
      const last = messages(body).at(-1);
      if (options.compactPrompt && last?.role === "user" && options.compactPrompt.test(messageText(last))) return "compact";
      return "turn";
    },

    side(path: string): Response {
      if (path.endsWith("/models")) return Response.json({ object: "list", data: (options.models ?? ["gpt-4.1"]).map((id) => ({ id, object: "model", owned_by: "bench" })) });
      return Response.json({ error: { message: `not scripted: ${path}`, type: "invalid_request_error" } }, { status: 404 });
    },

    render(reply: Reply, body: unknown, counter: () => number): Response {
      const id = counter();
      const model = isObject(body) && typeof body.model === "string" ? body.model : "gpt-4.1";
      const calls = (reply.tools ?? []).map((tool, index) => ({ index, id: tool.id ?? `call_${id}_${index}`, type: "function", function: { name: tool.name, arguments: JSON.stringify(tool.input) } }));
      const finish = calls.length > 0 ? "tool_calls" : "stop";
      const usage = { prompt_tokens: reply.inputTokens ?? 1_200, completion_tokens: reply.outputTokens ?? 40, total_tokens: (reply.inputTokens ?? 1_200) + (reply.outputTokens ?? 40) };
      const created = Math.floor(Date.now() / 1000);
      const base = { id: `chatcmpl-${id}`, created, model };
      if (!(isObject(body) && body.stream === true)) {
        const message: Json = { role: "assistant", content: reply.text ?? null, ...(calls.length > 0 ? { tool_calls: calls.map(({ index: _index, ...call }) => call) } : {}) };
        return Response.json({ ...base, object: "chat.completion", choices: [{ index: 0, message, finish_reason: finish }], usage });
      }
      const chunk = (choices: Json[], extra: Json = {}) => `data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices, ...extra })}\n\n`;
      const events = [chunk([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }])];
      if (reply.text) events.push(chunk([{ index: 0, delta: { content: reply.text }, finish_reason: null }]));
      for (const call of calls) events.push(chunk([{ index: 0, delta: { tool_calls: [call] }, finish_reason: null }]));
      events.push(chunk([{ index: 0, delta: {}, finish_reason: finish }]), chunk([], { usage }), "data: [DONE]\n\n");
      return new Response(events.join(""), { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
    },

    sentText(body: unknown): string {
      return messages(body).map(messageText).join("\n");
    },

    lastSentText(body: unknown): string {
      const last = messages(body).at(-1);
      return last ? messageText(last) : "";
    },

    firstSentText(body: unknown): string {
      const first = messages(body).find((message) => message.role === "user");
      return first ? messageText(first) : "";
    },
  };
}
