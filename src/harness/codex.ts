/**
 * Codex CLI (spec 3.2): Claude's envelope; `tool_response` is the output text (sometimes an object),
 * `tool_input.command` may be an array, and a patch may sit under `input`/`patch` (handled in common). A Bash
 * call's exit code, which 0.169 leaves out of the payload, comes from the rollout (codex-rollout.ts).
 */
import { withRolloutExitCode } from "./codex-rollout.ts";
import { eventFromEnvelope, parseEnvelope } from "./common.ts";
import type { Adapter } from "./types.ts";

const TOOL_ALIASES: Readonly<Record<string, string>> = {
  shell: "Bash",
  local_shell: "Bash",
  exec_command: "Bash",
  shell_command: "Bash",
  container_exec: "Bash",
};

/** `tool_use_id` (the model's call id, the rollout's item id), when it is a plain id. */
function callIdOf(raw: Record<string, unknown>): string | null {
  const id = raw.tool_use_id;
  return typeof id === "string" && /^[\w.:-]{1,200}$/.test(id) ? id : null;
}

export const codexAdapter: Adapter = (raw) => withRolloutExitCode(eventFromEnvelope(parseEnvelope(raw), { harness: "codex", toolAliases: TOOL_ALIASES }), callIdOf(raw));
