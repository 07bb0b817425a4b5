/** Spec 9.2 agent validation for the installer: `--agent` input and agents read back from installed handlers alike. */
import { canonicalAgent } from "../core/agent.ts";
import { printable } from "./printable.ts";

const VALID = /^[a-z][a-z0-9-]*$/;
/** Longer than any agent id; a name past it is not one (and would be repeated in every handler). */
export const AGENT_MAX_LENGTH = 64;

export class InvalidAgentError extends Error {
  constructor(readonly input: string) {
    super(`invalid agent name "${printable(input)}"; use a known agent id or kebab-case identifier`);
  }
}

/** `@QA`→`qa`, `/dev`→`dev`, `@pair`→`deyvin`; `auto` passes; shell-control payloads throw. */
export function validateInstallAgent(input: string): string {
  const id = canonicalAgent(input.trim().replace(/^\//, ""));
  if (!VALID.test(id) || id.length > AGENT_MAX_LENGTH) throw new InvalidAgentError(input);
  return id;
}

/**
 * An agent read back from an installed handler (a config file is as untrusted as the command line): the same
 * validation as `--agent`. `rejected` = there was a value and it failed, so the caller falls back to the default.
 */
export function installedAgentId(raw: string | null): { id: string | null; rejected: boolean } {
  if (raw === null) return { id: null, rejected: false };
  try {
    return { id: validateInstallAgent(raw), rejected: false };
  } catch (error) {
    if (error instanceof InvalidAgentError) return { id: null, rejected: true };
    throw error;
  }
}
