/**
 * The ten guard specs (event set + judge). Each judge imports its logic lazily so a hook pays only for the
 * guard it runs.
 */
import type { GuardSpec } from "./run.ts";

export const preCommitGuard: GuardSpec = {
  name: "pre-commit-guard",
  description: "Judge git commands before they run (Conventional Commits, push/tag ask)",
  events: ["PreToolUse"],
  judge: async (context) => (await import("./guard-pre-commit.ts")).judge(context),
};

const STOP_EVENTS = ["Stop", "SubagentStop"] as const;

export const verifyClaimsGuard: GuardSpec = {
  name: "verify-claims",
  description: "Block a stop whose message names paths no tool touched",
  events: STOP_EVENTS,
  judge: async (context) => (await import("./guard-stop.ts")).verifyClaims(context),
};

export const contextConfidenceCheckGuard: GuardSpec = {
  name: "context-confidence-check",
  description: "Require tool evidence for medium/low confidence rows",
  events: STOP_EVENTS,
  judge: async (context) => (await import("./guard-stop.ts")).confidenceCheck(context),
};

export const stopChecklistGuard: GuardSpec = {
  name: "stop-checklist",
  description: "Remind the agent of the project's stop checklist",
  events: STOP_EVENTS,
  judge: async (context) => (await import("./guard-stop.ts")).reminder("stop-checklist")(context),
};

export const outputFormatGuard: GuardSpec = {
  name: "output-format",
  description: "Remind the agent of the project's output format",
  events: STOP_EVENTS,
  judge: async (context) => (await import("./guard-stop.ts")).reminder("output-format")(context),
};

export const skillFeedbackGuard: GuardSpec = {
  name: "skill-feedback",
  description: "Ask for feedback on the skills used in the turn",
  events: STOP_EVENTS,
  judge: async (context) => (await import("./guard-stop.ts")).reminder("skill-feedback")(context),
};

/** The guards that judge a Stop, catalogue order (guard:stop-guards runs a chosen few in one hook). */
export const STOP_GUARDS: readonly GuardSpec[] = [verifyClaimsGuard, contextConfidenceCheckGuard, stopChecklistGuard, outputFormatGuard, skillFeedbackGuard];

export const subagentAuditGuard: GuardSpec = {
  name: "subagent-audit",
  description: "Log every sub-agent start",
  events: ["SubagentStart"],
  idle: { kind: "empty" },
  judge: async (context) => (await import("./subagent-audit.ts")).judge(context),
};

export const lessonInjectorGuard: GuardSpec = {
  name: "lesson-injector",
  description: "Inject matching lessons into the prompt",
  events: ["UserPromptSubmit"],
  judge: async (context) => (await import("./guard-context.ts")).lessonInjector(context),
};

export const sessionContextGuard: GuardSpec = {
  name: "session-context",
  description: "Inject project and git context at session start",
  events: ["SessionStart"],
  judge: async (context) => (await import("./guard-context.ts")).sessionContextGuard(context),
};

export const contextSaveGuard: GuardSpec = {
  name: "context-save",
  description: "Save a session snapshot before compaction",
  events: ["PreCompact"],
  judge: async (context) => (await import("./guard-context.ts")).contextSave(context),
};
