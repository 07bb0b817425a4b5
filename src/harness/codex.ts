/**
 * Codex CLI (spec 3.2): Claude's envelope; `tool_response` is the output text (sometimes an object),
 * `tool_input.command` may be an array, and a patch may sit under `input`/`patch` (handled in common).
 */
import { eventFromEnvelope, parseEnvelope } from "./common.ts";
import type { Adapter } from "./types.ts";

const TOOL_ALIASES: Readonly<Record<string, string>> = {
  shell: "Bash",
  local_shell: "Bash",
  exec_command: "Bash",
  shell_command: "Bash",
  container_exec: "Bash",
};

export const codexAdapter: Adapter = (raw) => eventFromEnvelope(parseEnvelope(raw), { harness: "codex", toolAliases: TOOL_ALIASES });
