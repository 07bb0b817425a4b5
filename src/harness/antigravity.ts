/**
 * Antigravity (spec 3.3, harness-protocols 4.3): Claude-compatible names with camelCase tolerated, and
 * its own captured shape: `conversationId`, `toolCall {name, args}` with PascalCase args, tool ids such
 * as `run_command`/`write_to_file`, `error` on a failed PostToolUse, `terminationReason` on Stop.
 */
import { eventFromEnvelope, firstText, parseEnvelope } from "./common.ts";
import type { Adapter } from "./types.ts";

const TOOL_ALIASES: Readonly<Record<string, string>> = {
  run_command: "Bash",
  write_to_file: "Write",
  replace_file_content: "Edit",
  edit_file: "Edit",
  multi_replace_file_content: "MultiEdit",
  view_file: "Read",
  view_file_outline: "Read",
  view_code_item: "Read",
  list_dir: "LS",
  find_by_name: "Glob",
  grep_search: "Grep",
  codebase_search: "Grep",
  invoke_subagent: "Task",
};

export const antigravityAdapter: Adapter = (raw) => {
  const envelope = parseEnvelope(raw);
  const call = envelope.toolCall;
  const callName = call && typeof call.name === "string" ? call.name : null;
  const callArgs = call && call.args !== null && typeof call.args === "object" && !Array.isArray(call.args) ? (call.args as Record<string, unknown>) : undefined;
  const event = firstText(envelope.hook_event_name, envelope.hookEventName);
  const base = eventFromEnvelope(envelope, {
    harness: "antigravity",
    toolAliases: TOOL_ALIASES,
    toolName: firstText(envelope.tool_name, envelope.toolName, callName),
    toolInput: envelope.tool_input ?? envelope.toolInput ?? callArgs,
  });
  // Antigravity does not always name the event; its Stop carries terminationReason/fullyIdle.
  const inferred = event ?? (base.tool === null && (envelope.terminationReason !== undefined || "fullyIdle" in raw) ? "Stop" : null);
  // A PostToolUse that carries an error is a failed tool call: the same fact Claude reports as PostToolUseFailure.
  const failed = (inferred ?? (base.tool ? "PostToolUse" : null)) === "PostToolUse" && base.error !== null;
  return { ...base, event: failed ? "PostToolUseFailure" : inferred };
};
