import { PASS, type Decision } from "./dialect.ts";
import { shellCommand, toolInput, toolName } from "./payload.ts";
import { DEFAULT_TYPES, judgePreCommit, SHELL_TOOLS } from "./pre-commit.ts";
import type { GuardContext } from "./run.ts";

export function judge(context: GuardContext): Decision {
  const tool = toolName(context.payload);
  // Copilot hooks have no matcher: the guard itself skips every tool that is not a shell.
  if (tool && !SHELL_TOOLS.has(tool)) return PASS;
  const line = shellCommand(toolInput(context.payload));
  if (!line.trim()) return PASS;
  if (context.section.codexAsk) context.render.codexAsk = context.section.codexAsk;
  const verdict = judgePreCommit(line, context.dir, context.section.types ?? DEFAULT_TYPES);
  return verdict ? { kind: "permission", permission: verdict.permission, reason: verdict.reason } : PASS;
}
