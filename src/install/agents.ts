/** Spec 9.2 agent validation for the installer. */
import { canonicalAgent } from "../core/agent.ts";

const VALID = /^[a-z][a-z0-9-]*$/;

export class InvalidAgentError extends Error {
  constructor(readonly input: string) {
    super(`invalid agent name "${input}"; use a known agent id or kebab-case identifier`);
  }
}

/** `@QA`→`qa`, `/dev`→`dev`, `@pair`→`deyvin`; `auto` passes; shell-control payloads throw. */
export function validateInstallAgent(input: string): string {
  const id = canonicalAgent(input.trim().replace(/^\//, ""));
  if (!VALID.test(id)) throw new InvalidAgentError(input);
  return id;
}
