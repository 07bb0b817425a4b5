import * as v from "valibot";
import { harnessSessionId } from "../core/labels.ts";

/** Spec 6.2 steps 2–3 and 6.9 before/after: the pending write a harness is about to make. */

export const WRITE_TOOLS = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit"]);

/** Antigravity names its file tools differently; their inputs use PascalCase keys. */
const ANTIGRAVITY_TOOLS = new Map<string, string>(Object.entries({
  write_to_file: "Write",
  replace_file_content: "Edit",
  multi_replace_file_content: "MultiEdit",
  edit_file: "Edit",
}));

const EditSchema = v.looseObject({
  old_string: v.optional(v.string()),
  new_string: v.optional(v.string()),
  replace_all: v.optional(v.boolean()),
});

const ToolInputSchema = v.looseObject({
  file_path: v.optional(v.string()),
  notebook_path: v.optional(v.string()),
  content: v.optional(v.string()),
  old_string: v.optional(v.string()),
  new_string: v.optional(v.string()),
  new_source: v.optional(v.string()),
  replace_all: v.optional(v.boolean()),
  edits: v.optional(v.array(EditSchema)),
});

export type ToolInput = v.InferOutput<typeof ToolInputSchema>;
type Edit = v.InferOutput<typeof EditSchema>;

export type PendingWrite = {
  tool: string;
  file: string;
  content: string;
  input: ToolInput;
  sessionId: string | null;
  /** `agent` ‖ `agent_name` ‖ `context.agent` of the event (spec 6.3 step 1), unnormalized. */
  eventAgent: string | null;
  /** The file's text before the write, when the event already knows it (null: a new file); absent: read the file. */
  before?: string | null;
};

function record(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function text(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

/** Antigravity `toolCall.args` mapped onto Claude's field names (only what the guard reads). */
function fromAntigravity(args: Record<string, unknown>): Record<string, unknown> {
  const chunks = Array.isArray(args.ReplacementChunks) ? args.ReplacementChunks.map(record).filter((c) => c !== null) : [];
  const replacement = [args.ReplacementContent, ...chunks.map((c) => c.ReplacementContent)].filter((s): s is string => typeof s === "string");
  return {
    file_path: args.TargetFile ?? args.file_path,
    content: args.CodeContent ?? args.content,
    ...(replacement.length > 0 ? { new_source: replacement.join("\n") } : {}),
  };
}

/**
 * Gemini CLI's file tools (Claude's field names) and Copilot CLI's Claude-named ones (`Write {path, file_text}`,
 * `Edit {path, old_str, new_str}`, real-harnesses §5), mapped onto what the guard reads.
 */
const GEMINI_TOOLS = new Map<string, string>([["write_file", "Write"], ["replace", "Edit"]]);

function fromCopilotCli(input: Record<string, unknown>): Record<string, unknown> {
  if (!("path" in input) || "file_path" in input) return input;
  return { ...input, file_path: input.path, content: input.file_text, old_string: input.old_str, new_string: input.new_str };
}

/**
 * The file's text before the write when the event comes after it (Gemini's AfterTool, where context:guard runs):
 * Gemini's `returnDisplay {originalContent, isNewFile}`. Undefined: read the file itself (it has not been written yet).
 */
function earlierText(event: Record<string, unknown>): string | null | undefined {
  if (event.hook_event_name !== "AfterTool") return undefined;
  const display = record(record(event.tool_response)?.returnDisplay);
  if (!display || typeof display.originalContent !== "string") return undefined;
  return display.isNewFile === true ? null : lf(display.originalContent);
}

function eventAgentOf(event: Record<string, unknown>): string | null {
  const context = record(event.context);
  for (const value of [event.agent, event.agent_name, context?.agent]) {
    const name = text(value);
    if (name && name.trim().toLowerCase() !== "auto") return name;
  }
  return null;
}

/** The write the event announces; null for any other tool or a write without file and content. */
export function pendingWrite(event: Record<string, unknown>): PendingWrite | null {
  const toolCall = record(event.toolCall);
  const named = text(event.tool_name) ?? text(event.toolName) ?? "";
  let tool = GEMINI_TOOLS.get(named) ?? named;
  const given = record(event.tool_input) ?? record(event.toolInput);
  let rawInput = given ? fromCopilotCli(given) : null;
  if (!tool && toolCall) {
    const name = text(toolCall.name) ?? "";
    tool = ANTIGRAVITY_TOOLS.get(name) ?? name;
    const args = record(toolCall.args);
    rawInput = args ? fromAntigravity(args) : null;
  }
  if (!WRITE_TOOLS.has(tool) || !rawInput) return null;
  const parsed = v.safeParse(ToolInputSchema, rawInput);
  if (!parsed.success) return null;
  const input = parsed.output;
  const file = text(input.file_path) ?? text(input.notebook_path) ?? "";
  const pieces = [input.content, input.new_string, input.old_string, input.new_source, ...(input.edits ?? []).map((e) => e.new_string)];
  const content = pieces.filter((p): p is string => typeof p === "string" && p !== "").join("\n");
  if (!file && !content) return null;
  const write: PendingWrite = { tool, file, content, input, sessionId: harnessSessionId(text(event.session_id) ?? text(event.conversationId)), eventAgent: eventAgentOf(event) };
  const before = earlierText(event);
  return before === undefined ? write : { ...write, before };
}

export function lf(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

function applyEdit(before: string, edit: Edit): string | null {
  if (edit.old_string === undefined || edit.new_string === undefined) return null;
  const oldText = lf(edit.old_string);
  const newText = lf(edit.new_string);
  if (oldText === "" || !before.includes(oldText)) return null;
  return edit.replace_all ? before.split(oldText).join(newText) : before.replace(oldText, () => newText);
}

/** The file as it will be after the write; null when it cannot be known. */
export function afterContent(write: PendingWrite, before: string | null): string | null {
  const { input } = write;
  switch (write.tool) {
    case "Write":
      return typeof input.content === "string" ? lf(input.content) : null;
    case "Edit":
      return before === null ? null : applyEdit(before, input);
    case "MultiEdit": {
      if (before === null || !input.edits || input.edits.length === 0) return null;
      let current: string | null = before;
      for (const edit of input.edits) {
        current = applyEdit(current, edit);
        if (current === null) return null;
      }
      return current;
    }
    default:
      return null;
  }
}
