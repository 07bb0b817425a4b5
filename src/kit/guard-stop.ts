/** Judges of the Stop guards: verify-claims, context-confidence-check and the three reminders. */
import { isAbsolute, resolve } from "node:path";
import { loadGuardText, type GuardName } from "./config.ts";
import { PASS, type Decision } from "./dialect.ts";
import { stopHookActive, stringField } from "./payload.ts";
import type { GuardContext } from "./run.ts";

/** The built-in reminders (seed 001); a project replaces one with `.aioson/hooks/<guard>.md`. */
export const REMINDERS: Readonly<Record<"stop-checklist" | "output-format" | "skill-feedback", string>> = {
  "stop-checklist": "Before finishing: 1) Did you run tests? 2) Did you produce a task map (if decisions were made)? 3) Is the quality checklist satisfied?",
  "output-format": "Verify your output follows the required format: Research Summary (researcher) or Validation Report (validator) with all mandatory sections.",
  "skill-feedback":
    "Skill feedback check: did you use a skill with a Feedback Protocol in this session, and did the user express dissatisfaction or have to correct you? " +
    "If so, ask the user what specifically failed and, only after the user confirms, write a structured review following that skill's Feedback Protocol. " +
    "If the session went well, ignore this and finish. Never create feedback without the user's validation.",
};

export function reminder(guard: keyof typeof REMINDERS) {
  return (context: GuardContext): Decision => {
    if (stopHookActive(context.payload)) return PASS;
    return { kind: "block", reason: loadGuardText(context.root, guard as GuardName) ?? REMINDERS[guard] };
  };
}

/** The transcript file; a relative path is taken from the hook's directory (harnesses send absolute ones). */
function transcriptPath(context: GuardContext): string {
  const path = stringField(context.payload, "agent_transcript_path", "transcript_path", "transcriptPath");
  return path && !isAbsolute(path) ? resolve(context.dir, path) : path;
}

function lastMessage(context: GuardContext): string {
  return stringField(context.payload, "last_assistant_message", "lastAssistantMessage");
}

export async function verifyClaims(context: GuardContext): Promise<Decision> {
  if (stopHookActive(context.payload)) return PASS;
  const path = transcriptPath(context);
  if (!path) return PASS;
  const { readTurn } = await import("./transcript.ts");
  const turn = readTurn(path);
  // Without a readable transcript nothing can be verified, and guessing would block honest answers.
  if (!turn) return PASS;
  const { DEFAULT_MAX_PATHS, unverifiedPaths, unverifiedReason } = await import("./claims.ts");
  const paths = unverifiedPaths(turn, lastMessage(context), context.section.maxPaths ?? DEFAULT_MAX_PATHS);
  return paths.length > 0 ? { kind: "block", reason: unverifiedReason(paths) } : PASS;
}

export async function confidenceCheck(context: GuardContext): Promise<Decision> {
  if (stopHookActive(context.payload)) return PASS;
  const path = transcriptPath(context);
  const { readTail, turnFromText, toolNamesFromText } = await import("./transcript.ts");
  const text = path ? readTail(path) : null;
  const turn = text === null ? null : turnFromText(text);
  const { confidenceRows, confidenceFaults, confidenceReason } = await import("./confidence.ts");
  const answer = [...(turn?.assistantText ?? []), lastMessage(context)].join("\n");
  const rows = confidenceRows(answer);
  if (rows.length === 0) return PASS;
  const faults = confidenceFaults(rows, text === null ? new Set() : toolNamesFromText(text));
  return faults.length > 0 ? { kind: "block", reason: confidenceReason(faults) } : PASS;
}
