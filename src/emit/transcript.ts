/**
 * Spec 4.10 (MAY): the last assistant text of a JSONL transcript, when the Stop payload has none. Two
 * shapes: Claude Code's `{type:"assistant", message:{content}}` lines, and the Copilot Chat transcript
 * (microsoft/vscode-copilot-chat `src/extension/chat/vscode-node/sessionTranscriptService.ts`):
 * `{type:"assistant.message", data:{content, toolRequests}}`, whose content is empty on tool-only rounds.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";

const TAIL_BYTES = 1024 * 1024;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function assistantText(entry: unknown): string | null {
  if (!isObject(entry)) return null;
  if (entry.type === "assistant.message") return isObject(entry.data) && typeof entry.data.content === "string" ? entry.data.content : null;
  const message = isObject(entry.message) ? entry.message : null;
  const isAssistant = entry.type === "assistant" || message?.role === "assistant";
  if (!isAssistant || !message) return null;
  const content = message.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return null;
  const texts = content.filter((block) => isObject(block) && block.type === "text" && typeof block.text === "string").map((block) => (block as { text: string }).text);
  return texts.length > 0 ? texts.join("\n") : null;
}

/** Reads at most the last 1 MiB; any problem (missing, unreadable, junk) answers null. */
export function lastAssistantText(path: string): string | null {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const stat = fstatSync(fd);
    if (!stat.isFile()) return null;
    const length = Math.min(stat.size, TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, stat.size - length);
    const lines = buffer.toString("utf8").split("\n");
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
      if (text !== null && text.trim() !== "") return text;
    }
    return null;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
