import { logHookProblem } from "../core/hook-log.ts";
import { CUT_MARK } from "../core/labels.ts";
import { PASS, type Decision } from "./dialect.ts";
import { shellCommand, toolInput, toolName } from "./payload.ts";
import { DEFAULT_TYPES, judgePreCommit, SHELL_TOOLS } from "./pre-commit.ts";
import type { GuardContext } from "./run.ts";

/**
 * A command the guard could not read whole may run anything in the part it did not see: the middle of a string
 * longer than the payload bounds, or the words after a value they cut off (src/core/payload-text.ts), or the end a
 * sender cut off before it reached aioson (a command ending with the cut mark, as the OpenCode plugin caps it).
 */
const UNREAD = "the command is too long to be read whole, so what it runs cannot be checked: confirm with the user before it runs.";
/** A judgement that failed (the guard's own fault) cannot tell that the command is harmless either. */
const UNJUDGED = "the command could not be checked: confirm with the user before it runs.";

export function judge(context: GuardContext): Decision {
  const tool = toolName(context.payload);
  // Copilot hooks have no matcher: the guard itself skips every tool that is not a shell.
  if (tool && !SHELL_TOOLS.has(tool)) return PASS;
  if (context.section.codexAsk) context.render.codexAsk = context.section.codexAsk;
  const line = shellCommand(toolInput(context.payload));
  if (!context.whole || line.endsWith(CUT_MARK)) return { kind: "permission", permission: "ask", reason: UNREAD };
  if (!line.trim()) return PASS;
  try {
    const verdict = judgePreCommit(line, context.dir, context.section.types ?? DEFAULT_TYPES);
    return verdict ? { kind: "permission", permission: verdict.permission, reason: verdict.reason } : PASS;
  } catch (error) {
    logHookProblem(context.root, "guard:pre-commit-guard", error);
    return { kind: "permission", permission: "ask", reason: UNJUDGED };
  }
}
