/** Judges of the Stop guards: verify-claims, context-confidence-check and the three reminders. */
import { isAbsolute, resolve } from "node:path";
import { logHookProblem } from "../core/hook-log.ts";
import { loadGuardText, type GuardName } from "./config.ts";
import { PASS, type Decision } from "./dialect.ts";
import { stopHookActive, stringField, subagentStopAtStop } from "./payload.ts";
import type { GuardContext } from "./run.ts";
import type { StopTurn } from "./transcript.ts";

/** The built-in reminders (seed 001); a project replaces one with `.aioson/hooks/<guard>.md`. */
export const REMINDERS: Readonly<Record<"stop-checklist" | "output-format" | "skill-feedback", string>> = {
  "stop-checklist": "Before finishing: 1) Did you run tests? 2) Did you produce a task map (if decisions were made)? 3) Is the quality checklist satisfied?",
  "output-format": "Verify your output follows the required format: Research Summary (researcher) or Validation Report (validator) with all mandatory sections.",
  "skill-feedback":
    "Skill feedback check: did you use a skill with a Feedback Protocol in this session, and did the user express dissatisfaction or have to correct you? " +
    "If so, ask the user what specifically failed and, only after the user confirms, write a structured review following that skill's Feedback Protocol. " +
    "If the session went well, ignore this and finish. Never create feedback without the user's validation.",
};

/**
 * A project's reminder text is project text going into a model: sanitised line by line (withheld lines counted);
 * when nothing of it is left, the built-in reminder speaks.
 */
async function projectReminder(text: string, fallback: string): Promise<string> {
  const { Sanitizer, withheldLine } = await import("../text/sanitize.ts");
  const clean = new Sanitizer();
  const lines = clean.lines(text);
  if (clean.withheld > 0) lines.push(withheldLine(clean.withheld, "line(s) of the project's reminder"));
  return lines.length > (clean.withheld > 0 ? 1 : 0) ? lines.join("\n") : [fallback, ...lines].join("\n");
}

/** The transcript file; a relative path is taken from the hook's directory (harnesses send absolute ones). */
function transcriptPath(context: GuardContext): string {
  const path = stringField(context.payload, "agent_transcript_path", "transcript_path", "transcriptPath");
  return path && !isAbsolute(path) ? resolve(context.dir, path) : path;
}

function lastMessage(context: GuardContext): string {
  // Gemini CLI names the answer of the turn `prompt_response` (AfterAgent).
  return stringField(context.payload, "last_assistant_message", "lastAssistantMessage", "prompt_response");
}

/** The turn being stopped, once the transcript holds the payload's answer (or the wait ran out); null = unreadable. */
async function stopTurn(context: GuardContext): Promise<StopTurn | null> {
  const path = transcriptPath(context);
  if (!path) return null;
  const { readStopTurn } = await import("./transcript.ts");
  return readStopTurn(path, lastMessage(context));
}

/**
 * A check that found something it could not confirm in a transcript that never caught up: said to the person (a
 * `systemMessage`) and logged, neither a block the agent did not deserve nor a silent pass.
 */
function unchecked(context: GuardContext, read: StopTurn, what: string): Decision {
  const note = `${read.incomplete ?? "the transcript is incomplete"}; not checked: ${what}`;
  logHookProblem(context.root, `guard:${context.guard}`, note);
  return { kind: "notice", text: `AIOSON ${context.guard}: ${note}` };
}

/** A stop the guards leave alone: one a Stop hook already blocked, or a sub-agent's (Copilot CLI sends those too). */
function leaveAlone(context: GuardContext): boolean {
  return stopHookActive(context.payload) || subagentStopAtStop(context.payload);
}

/**
 * Reminders speak once per turn the user started: not on the Stop a block continues (`stop_hook_active`), and not
 * on the automatic round an async sub-agent's `<task-notification>` starts (the user's turn already had them).
 */
export function reminder(guard: keyof typeof REMINDERS) {
  return async (context: GuardContext): Promise<Decision> => {
    if (leaveAlone(context)) return PASS;
    const read = await stopTurn(context);
    if (read?.turn.automatic) return PASS;
    const text = loadGuardText(context.root, guard as GuardName);
    return { kind: "block", reason: text === null ? REMINDERS[guard] : await projectReminder(text, REMINDERS[guard]) };
  };
}

export async function verifyClaims(context: GuardContext): Promise<Decision> {
  if (leaveAlone(context)) return PASS;
  const read = await stopTurn(context);
  // Without a readable transcript nothing can be verified, and guessing would block honest answers.
  if (!read) return PASS;
  const { DEFAULT_MAX_PATHS, unverifiedPaths, unverifiedReason } = await import("./claims.ts");
  const paths = unverifiedPaths(read.turn, lastMessage(context), context.section.maxPaths ?? DEFAULT_MAX_PATHS);
  if (paths.length === 0) return PASS;
  if (!read.complete) return unchecked(context, read, `file references ${paths.join(", ")}`);
  return { kind: "block", reason: unverifiedReason(paths) };
}

export async function confidenceCheck(context: GuardContext): Promise<Decision> {
  if (leaveAlone(context)) return PASS;
  const read = await stopTurn(context);
  const { toolNamesOfFile } = await import("./transcript.ts");
  const { confidenceRows, confidenceFaults, confidenceReason } = await import("./confidence.ts");
  // The payload's answer counts once: added only when the transcript does not hold it yet.
  const answer = [...(read?.turn.assistantText ?? []), ...(read?.complete ? [] : [lastMessage(context)])].join("\n");
  const rows = confidenceRows(answer);
  if (rows.length === 0) return PASS;
  const faults = confidenceFaults(rows, (read ? toolNamesOfFile(transcriptPath(context)) : null) ?? new Set());
  if (faults.length === 0) return PASS;
  if (read && !read.complete) return unchecked(context, read, `confidence rows ${faults.map((fault) => `"${fault.axis}"`).join(", ")}`);
  return { kind: "block", reason: confidenceReason(faults) };
}
