/**
 * Lenient valibot schemas shared by the adapters: a field of the wrong type becomes absent instead of
 * failing the payload, because a hook must record what it can and never throw at the harness.
 */
import * as v from "valibot";
import { harnessSessionId, pathText } from "../core/labels.ts";
import type { HarnessName, HookEvent, PlanItem, ToolCall, ToolResponse } from "./types.ts";

const text = v.fallback(v.optional(v.string()), undefined);
const record = v.fallback(v.optional(v.record(v.string(), v.unknown())), undefined);
const list = v.fallback(v.optional(v.array(v.unknown())), undefined);
const anything = v.optional(v.unknown());

/** The envelope fields, snake_case first then camelCase (spec 3), plus Antigravity's own names. */
export const EnvelopeSchema = v.object({
  hook_event_name: text,
  hookEventName: text,
  session_id: text,
  sessionId: text,
  sessionID: text,
  conversationId: text,
  cwd: text,
  transcript_path: text,
  transcriptPath: text,
  tool_name: text,
  toolName: text,
  tool_input: record,
  toolInput: record,
  tool_response: anything,
  toolResponse: anything,
  toolCall: record,
  error: anything,
  prompt: text,
  user_prompt: text,
  userPrompt: text,
  message: text,
  last_assistant_message: text,
  lastAssistantMessage: text,
  response: text,
  trigger: text,
  reason: text,
  /** SessionStart: `startup`, `resume`, `clear`, `compact`. */
  source: text,
  stop_hook_active: anything,
  stopHookActive: anything,
  terminationReason: text,
  workspacePaths: list,
  duration_ms: anything,
});
export type Envelope = v.InferOutput<typeof EnvelopeSchema>;

/** Every tool-input spelling the four harnesses use (Claude snake_case, OpenCode camelCase, Antigravity PascalCase). */
export const ToolInputSchema = v.object({
  file_path: text,
  filePath: text,
  FilePath: text,
  notebook_path: text,
  notebookPath: text,
  TargetFile: text,
  AbsolutePath: text,
  path: text,
  command: v.fallback(v.optional(v.union([v.string(), v.array(v.unknown())])), undefined),
  cmd: v.fallback(v.optional(v.union([v.string(), v.array(v.unknown())])), undefined),
  CommandLine: text,
  input: text,
  patch: text,
  patchText: text,
  description: text,
  Description: text,
  prompt: text,
  Prompt: text,
  subagent_type: text,
  subagentType: text,
  todos: list,
  plan: list,
  skill: text,
  name: text,
});
export type ToolInput = v.InferOutput<typeof ToolInputSchema>;

const PlanItemSchema = v.object({ content: text, step: text, title: text, status: text });

const ResponseSchema = v.object({
  stdout: text,
  stderr: text,
  output: text,
  output_tail: text,
  aggregated_output: text,
  formatted_output: text,
  exit_code: anything,
  exitCode: anything,
  returncode: anything,
  returnCode: anything,
  interrupted: anything,
  metadata: record,
});

export function parseEnvelope(raw: Record<string, unknown>): Envelope {
  const parsed = v.safeParse(EnvelopeSchema, raw);
  return parsed.success ? parsed.output : ({} as Envelope);
}

export function parseToolInput(raw: Record<string, unknown> | undefined): ToolInput {
  if (!raw) return {} as ToolInput;
  const parsed = v.safeParse(ToolInputSchema, raw);
  return parsed.success ? parsed.output : ({} as ToolInput);
}

/** First non-blank string among the candidates. */
export function firstText(...values: Array<string | undefined | null>): string | null {
  for (const value of values) if (typeof value === "string" && value.trim() !== "") return value;
  return null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A tool runs for at most a day; anything else is not a duration. */
const DURATION_MAX_MS = 86_400_000;

function durationMs(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 && value <= DURATION_MAX_MS ? Math.round(value) : null;
}

function asExitCode(value: unknown): number | null {
  return typeof value === "number" && Number.isInteger(value) ? value : null;
}

/** Strings of a command array; a patch element wins, `[shell, -c, script]` gives the script. */
export function commandText(value: string | unknown[] | undefined): string | null {
  if (typeof value === "string") return value;
  if (!Array.isArray(value)) return null;
  const parts = value.filter((part): part is string => typeof part === "string");
  if (parts.length === 0) return null;
  const patch = parts.find((part) => part.includes("*** Begin Patch"));
  if (patch !== undefined) return patch;
  const flag = parts[1];
  if (parts.length === 3 && (flag === "-c" || flag === "-lc" || flag === "/c" || flag === "-Command")) return parts[2] as string;
  return parts.join(" ");
}

export function planItems(value: unknown[] | undefined): PlanItem[] | null {
  if (!value) return null;
  const items: PlanItem[] = [];
  for (const entry of value) {
    if (typeof entry === "string") {
      items.push({ text: entry, status: "pending" });
      continue;
    }
    const parsed = v.safeParse(PlanItemSchema, entry);
    if (!parsed.success) continue;
    items.push({ text: firstText(parsed.output.content, parsed.output.step, parsed.output.title) ?? "", status: parsed.output.status ?? "pending" });
  }
  return items;
}

/** Spec 4.5: a string response is the output; an object contributes its string fields and exit code. */
export function toolResponse(value: unknown): ToolResponse | null {
  if (typeof value === "string") return { text: value, exitCode: null, structured: false, interrupted: false };
  if (!isObject(value)) return null;
  const parsed = v.safeParse(ResponseSchema, value);
  if (!parsed.success) return { text: "", exitCode: null, structured: true, interrupted: false };
  const r = parsed.output;
  const parts = [r.stdout, r.stderr, r.output, r.output_tail, r.aggregated_output, r.formatted_output].filter(
    (part): part is string => typeof part === "string" && part !== "",
  );
  const exitCode =
    asExitCode(r.exit_code) ?? asExitCode(r.exitCode) ?? asExitCode(r.returncode) ?? asExitCode(r.returnCode) ?? asExitCode(r.metadata?.exit);
  return { text: parts.join("\n"), exitCode, structured: true, interrupted: r.interrupted === true };
}

/** Error text: a string, or the `message` of an error object. */
export function errorText(value: unknown): string | null {
  if (typeof value === "string") return value.trim() === "" ? null : value;
  if (isObject(value) && typeof value.message === "string" && value.message.trim() !== "") return value.message;
  return null;
}

/** Maps a harness tool name onto the canonical spelling; unknown names pass through unchanged. */
export function toolCall(name: string, input: ToolInput, aliases: Readonly<Record<string, string>>): ToolCall {
  const canonical = aliases[name] ?? COMMON_TOOL_ALIASES[name] ?? name;
  const command = commandText(input.command) ?? commandText(input.cmd) ?? firstText(input.CommandLine);
  const isPatch = canonical === "apply_patch";
  return {
    name: canonical,
    filePath: firstText(input.file_path, input.filePath, input.FilePath, input.notebook_path, input.notebookPath, input.TargetFile, input.AbsolutePath, input.path),
    files: null,
    command: isPatch ? null : command,
    patch: isPatch ? firstText(command, input.input, input.patch, input.patchText) : null,
    description: firstText(input.description, input.Description),
    taskPrompt: firstText(input.prompt, input.Prompt),
    subagentType: firstText(input.subagent_type, input.subagentType),
    plan: planItems(input.todos) ?? planItems(input.plan),
    skill: firstText(input.skill, input.name, typeof input.command === "string" ? input.command : undefined),
  };
}

/**
 * VS Code and Gemini CLI name MCP tools `mcp_<server>_<tool>` (microsoft/vscode `src/vs/workbench/contrib/mcp/common/
 * mcpTypes.ts` `McpToolName.Prefix`; Gemini CLI's tool registry): spelled the Claude way (`mcp__…`) they are ignored
 * like every MCP tool (spec 4.3). Null for any other name.
 */
export function mcpAsClaude(name: string | null): string | null {
  return name !== null && name.startsWith("mcp_") && !name.startsWith("mcp__") ? `mcp__${name.slice(4)}` : null;
}

/** Spellings every harness may use for the tools hooks:emit records (spec 4.3 "also"). */
const COMMON_TOOL_ALIASES: Readonly<Record<string, string>> = {
  patch: "apply_patch",
  shell: "Bash",
  local_shell: "Bash",
};

export type EnvelopeOptions = {
  harness: HarnessName;
  toolAliases: Readonly<Record<string, string>>;
  /** Overrides for harness-specific shapes (Antigravity's `toolCall`). */
  toolName?: string | null;
  toolInput?: Record<string, unknown>;
  event?: string | null;
  error?: string | null;
  sessionId?: string | null;
};

/** The normalised event of a Claude-shaped envelope (all four harnesses share this base). */
export function eventFromEnvelope(e: Envelope, options: EnvelopeOptions): HookEvent {
  const name = options.toolName ?? firstText(e.tool_name, e.toolName);
  const input = parseToolInput(options.toolInput ?? e.tool_input ?? e.toolInput);
  return {
    harness: options.harness,
    event: options.event ?? firstText(e.hook_event_name, e.hookEventName),
    sessionId: harnessSessionId(options.sessionId ?? firstText(e.session_id, e.sessionId, e.sessionID, e.conversationId)),
    cwd: pathText(firstText(e.cwd)),
    transcriptPath: pathText(firstText(e.transcript_path, e.transcriptPath)),
    tool: name ? toolCall(name.trim(), input, options.toolAliases) : null,
    response: toolResponse(e.tool_response ?? e.toolResponse),
    error: options.error ?? errorText(e.error),
    prompt: firstText(e.prompt, e.user_prompt, e.userPrompt, e.message),
    lastMessage: firstText(e.last_assistant_message, e.lastAssistantMessage, e.message, e.response),
    trigger: firstText(e.trigger)?.trim() ?? null,
    reason: firstText(e.reason)?.trim() ?? null,
    startSource: firstText(e.source)?.trim() ?? null,
    stopHookActive: isTrue(e.stop_hook_active ?? e.stopHookActive),
    taskChange: null,
    durationMs: durationMs(e.duration_ms),
  };
}

function isTrue(value: unknown): boolean {
  return value === true || value === "true";
}
