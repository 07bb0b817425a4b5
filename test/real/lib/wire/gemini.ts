/**
 * The Gemini API as Gemini CLI 0.61.0 speaks it: `POST /v1beta/models/<m>:streamGenerateContent?alt=sse` for the
 * conversation (`data: {candidates[{content{role, parts[text | functionCall{name, args}]}, finishReason}],
 * usageMetadata}` events), `:generateContent` (the same object, not streamed) for its side calls and its compression
 * (`systemInstruction` asking for a `<state_snapshot>`: the summary and its verification), `:countTokens`.
 */
import type { Reply, RequestKind, Wire } from "../server.ts";

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function contents(body: unknown): Json[] {
  return isObject(body) && Array.isArray(body.contents) ? body.contents.filter(isObject) : [];
}

/** Every text a part carries to the model: text, function responses (tool results, with hook context), call args. */
function partText(part: Json): string {
  if (typeof part.text === "string") return part.text;
  if (isObject(part.functionResponse)) return JSON.stringify(part.functionResponse.response ?? {});
  if (isObject(part.functionCall)) return JSON.stringify(part.functionCall.args ?? {});
  return "";
}

function contentText(content: Json): string {
  return Array.isArray(content.parts) ? content.parts.filter(isObject).map(partText).join("\n") : "";
}

function systemText(body: unknown): string {
  return isObject(body) && isObject(body.systemInstruction) ? contentText(body.systemInstruction) : "";
}

const SNAPSHOT_PROMPT = "<state_snapshot>";

export const geminiWire: Wire = {
  name: "gemini-generate-content",

  classify(path: string, body: unknown): RequestKind {
    if (!/:(?:stream)?[gG]enerateContent$/.test(path)) return "side";
    if (systemText(body).includes(SNAPSHOT_PROMPT)) return "compact";
    // Side calls (next-speaker checks, routing) are non-streamed; the conversation streams.
    return path.endsWith(":streamGenerateContent") ? "turn" : "side";
  },

  side(path: string): Response {
    if (path.endsWith(":countTokens")) return Response.json({ totalTokens: 1_000 });
    if (path.endsWith(":generateContent")) {
      return Response.json({
        candidates: [{ content: { role: "model", parts: [{ text: '{"reasoning":"the model finished","next_speaker":"user"}' }] }, finishReason: "STOP", index: 0 }],
        usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 10, totalTokenCount: 110 },
      });
    }
    return Response.json({ error: { code: 404, message: `not scripted: ${path}`, status: "NOT_FOUND" } }, { status: 404 });
  },

  render(reply: Reply, _body: unknown, counter: () => number, path: string): Response {
    counter();
    const parts: Json[] = [];
    if (reply.text !== undefined) parts.push({ text: reply.text });
    for (const tool of reply.tools ?? []) parts.push({ functionCall: { name: tool.name, args: tool.input } });
    const prompt = reply.inputTokens ?? 1_200;
    const output = reply.outputTokens ?? 40;
    const chunk = {
      candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
      usageMetadata: { promptTokenCount: prompt, candidatesTokenCount: output, totalTokenCount: prompt + output },
      modelVersion: "gemini-2.5-flash",
    };
    if (path.endsWith(":generateContent")) return Response.json(chunk);
    return new Response(`data: ${JSON.stringify(chunk)}\r\n\r\n`, { headers: { "content-type": "text/event-stream" } });
  },

  sentText(body: unknown): string {
    return [systemText(body), ...contents(body).map(contentText)].join("\n");
  },

  lastSentText(body: unknown): string {
    const last = contents(body).at(-1);
    return last ? contentText(last) : "";
  },

  firstSentText(body: unknown): string {
    const first = contents(body)[0];
    return first ? contentText(first) : "";
  },
};
