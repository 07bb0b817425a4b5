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
