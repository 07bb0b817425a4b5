/**
 * OpenCode (spec 3.4): the AIOSON plugin synthesises Claude-shaped payloads (`sessionID`, bash
 * `tool_response = {exit_code, output_tail}`); lower-case tool ids are still accepted in case an older
 * plugin forwards them unmapped.
 */
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

export const opencodeAdapter: Adapter = (raw) => eventFromEnvelope(parseEnvelope(raw), { harness: "opencode", toolAliases: TOOL_ALIASES });
