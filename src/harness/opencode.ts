/**
 * OpenCode (spec 3.4): the AIOSON plugin synthesises Claude-shaped payloads (`sessionID`, bash
 * `tool_response = {exit_code, output_tail}`); lower-case tool ids are still accepted in case an older
 * plugin forwards them unmapped.
 */
import * as v from "valibot";
import { eventFromEnvelope, parseEnvelope } from "./common.ts";
import type { Adapter } from "./types.ts";

const TOOL_ALIASES: Readonly<Record<string, string>> = {
  write: "Write",
  edit: "Edit",
  multiedit: "MultiEdit",
  bash: "Bash",
  todowrite: "TodoWrite",
  task: "Task",
  skill: "Skill",
  read: "Read",
  glob: "Glob",
  grep: "Grep",
  list: "LS",
  webfetch: "WebFetch",
  websearch: "WebSearch",
};

/**
 * `opencode run "<prompt>"` joins its arguments and wraps every one that holds a space in double quotes
 * (real-harnesses §3), so the plugin receives `"/dev fix the cart"`. A prompt that starts and ends with a double
 * quote loses that one pair and nothing else, so the activation rule (spec 4.9) sees what the user typed.
 */
export function unwrapRunQuotes(prompt: string): string {
  const text = prompt.trim();
  return text.length >= 2 && text.startsWith('"') && text.endsWith('"') ? text.slice(1, -1) : prompt;
}

export const opencodeAdapter: Adapter = (raw) => {
  const event = eventFromEnvelope(parseEnvelope(raw), { harness: "opencode", toolAliases: TOOL_ALIASES });
  return event.prompt === null ? event : { ...event, prompt: unwrapRunQuotes(event.prompt) };
};

/** The plugin's queue holds at most 16 waiting events; it counts the ones it turned away since its last call. */
const DroppedSchema = v.object({ aioson_dropped: v.fallback(v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1_000_000_000))), undefined) });

/** What the plugin asks aioson to note in the project's hook log (its own file writes go through aioson). */
export function opencodeNotices(raw: Record<string, unknown>): string[] {
  const dropped = v.parse(DroppedSchema, raw).aioson_dropped;
  return dropped === undefined ? [] : [`OpenCode plugin: ${dropped} event${dropped === 1 ? "" : "s"} dropped, its queue was full (at most 16 wait for aioson)`];
}
