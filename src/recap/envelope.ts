/**
 * Spec 5.9: how a checkpoint is handed to each harness. Claude Code and Codex (and any other or
 * unknown harness) read `hookSpecificOutput.additionalContext` of a SessionStart hook; the OpenCode
 * plugin takes the bare `{additionalContext}`; without `--json` it is plain text.
 */
export type RecapOutput = { kind: "json"; value: Record<string, unknown> } | { kind: "text"; text: string } | { kind: "none" };

export function recapOutput(text: string | null, source: string, json: boolean): RecapOutput {
  if (!json) return text ? { kind: "text", text } : { kind: "none" };
  if (!text) return { kind: "json", value: {} };
  if (source === "opencode") return { kind: "json", value: { additionalContext: text } };
  return { kind: "json", value: { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: text } } };
}
