/**
 * Spec 4.10 (MAY): the last assistant text of a JSONL transcript, when the Stop payload has none. Two
 * shapes: Claude Code's `{type:"assistant", message:{content}}` lines, and the Copilot Chat transcript
 * (microsoft/vscode-copilot-chat `src/extension/chat/vscode-node/sessionTranscriptService.ts`):
 * `{type:"assistant.message", data:{content, toolRequests}}` (Copilot CLI writes the same to its events.jsonl), whose
 * content is empty on tool-only rounds; a newest message with text and tool calls means the answer is not written yet.
 */
import { closeSync } from "node:fs";
import { openRegularFile, readBytes } from "../core/regular-file.ts";

const TAIL_BYTES = 1024 * 1024;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** `undefined`: the entry is no assistant message; `null`: it is one, but not the turn's answer. */
function assistantText(entry: unknown): string | null | undefined {
  if (!isObject(entry)) return undefined;
  if (entry.type === "assistant.message") {
    const data = isObject(entry.data) ? entry.data : {};
    const text = typeof data.content === "string" && data.content.trim() !== "" ? data.content : undefined;
    // Text written with tool calls is a progress note, not the answer: Copilot CLI may not have written the answer
    // yet when Stop runs, and that note (or an older answer) would be recorded as the last message.
    if (text !== undefined && Array.isArray(data.toolRequests) && data.toolRequests.length > 0) return null;
    return text;
  }
  const message = isObject(entry.message) ? entry.message : null;
  const isAssistant = entry.type === "assistant" || message?.role === "assistant";
  if (!isAssistant || !message) return undefined;
  const content = message.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content.filter((block) => isObject(block) && block.type === "text" && typeof block.text === "string").map((block) => (block as { text: string }).text);
  return texts.length > 0 ? texts.join("\n") : undefined;
}

/**
 * Reads at most the last 1 MiB; any problem (missing, unreadable, junk) answers null. Only a regular file is
 * read: the payload names the path, and a FIFO there must not hang the hook (openRegularFile never blocks).
 */
export function lastAssistantText(path: string): string | null {
  const file = openRegularFile(path);
  if (file.kind !== "open") return null;
  const { fd } = file;
  try {
    const length = Math.min(file.size, TAIL_BYTES);
    const lines = readBytes(fd, file.size - length, length).toString("utf8").split("\n");
    for (let i = lines.length - 1; i >= 0; i--) {
      const line = (lines[i] as string).trim();
      if (!line) continue;
      let entry: unknown;
      try {
        entry = JSON.parse(line);
      } catch {
        continue;
      }
      const text = assistantText(entry);
      if (text === null) return null;
      if (text !== undefined && text.trim() !== "") return text;
    }
    return null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
