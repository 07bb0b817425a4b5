/** Option parsing shared by the people-facing runtime and session commands. */
import type { BooleanArgDef, PositionalArgDef } from "citty";
import { AGENT_ID_MAX, canonicalAgent, isAgentId, stripQuotes } from "../core/agent.ts";
import { keyProblem } from "../core/labels.ts";
import { CommandError } from "../core/output.ts";
import { resolveUserRoot } from "../core/project-root.ts";
import { redactSecrets } from "../text/redact.ts";

/** The positional `dir` (spec 0.1), default the process cwd. */
export function startDir(dir: unknown): string {
  return typeof dir === "string" && dir.trim() !== "" ? dir : process.cwd();
}

/** User-command root (spec 1.4). */
export function userRoot(dir: unknown): string {
  return resolveUserRoot(startDir(dir));
}

/** A string option, trimmed; null when absent, empty or given as a bare switch. */
export function textOption(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const text = value.trim();
  return text === "" ? null : text;
}

/**
 * A required `--agent`, canonical id (spec 0.2) without the `@`. Unknown names pass through (custom and squad
 * agents): a name that is no agent id is recorded as given (capped like every label) but never names a pointer
 * file (live/pointer.ts), so such an agent has no live session to find.
 */
export function requiredAgent(value: unknown, missingMessage: string): string {
  const text = textOption(value);
  const agent = text === null ? "" : canonicalAgent(stripQuotes(text));
  if (agent === "") throw new CommandError(missingMessage, { hint: "Name the agent: --agent=<id>, e.g. --agent=dev.", specWorded: true });
  return agent;
}

/** An agent that will own a pointer file (`live:start`): it must be an agent id (spec 4.1), else a clear error. */
export function pointerAgent(agent: string): string {
  if (isAgentId(agent)) return agent;
  throw new CommandError(`Invalid --agent: ${JSON.stringify(agent.slice(0, 80))} (a live session's agent is lower-case letters, digits and '-', at most ${AGENT_ID_MAX} characters).`);
}

/** `--session`: a key that names the session's live folder (labels.ts), else a clear error. */
export function sessionKeyOption(value: unknown): string | null {
  const key = textOption(value);
  if (key === null) return null;
  const problem = keyProblem(key);
  if (problem) throw new CommandError(`Invalid --session: ${JSON.stringify(key.slice(0, 80))} ${problem}.`);
  return key;
}

/** A comma list: trimmed, empty entries dropped, de-duplicated in order. */
export function commaList(value: unknown, clean: (item: string) => string = (item) => item): string[] {
  if (typeof value !== "string") return [];
  const items = value.split(",").map((item) => clean(item.trim()).trim()).filter(Boolean);
  return [...new Set(items)];
}

/** A finite number, else null (`--token-count=abc` stores NULL). */
export function numberOption(value: unknown): number | null {
  if (typeof value !== "string" || value.trim() === "") return null;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : null;
}

/** A positive integer option, else the fallback. */
export function positiveInt(value: unknown, fallback: number): number {
  const parsed = numberOption(value);
  return parsed !== null && parsed > 0 ? Math.floor(parsed) : fallback;
}

/**
 * Spec 13 summaries (and similar): redacted, then trimmed, longer than 500 characters ⇒ first 497 + `...`. Redacted
 * before the cut, so a cut never leaves half a secret behind (the store redacts what it is given again).
 */
export function capSummary(text: string): string {
  const trimmed = redactSecrets(text).trim();
  return trimmed.length > 500 ? `${trimmed.slice(0, 497)}...` : trimmed;
}

const DURATION_UNITS: Readonly<Record<string, number>> = { h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** `30d`, `12h`, `2w`, or a bare number of days; null when it is none of these or not positive. */
export function durationMs(value: string): number | null {
  const match = /^(\d+(?:\.\d+)?)\s*([hdw]?)$/i.exec(value.trim());
  if (!match) return null;
  const amount = Number(match[1]) * (DURATION_UNITS[(match[2] || "d").toLowerCase()] as number);
  return Number.isFinite(amount) && amount > 0 ? amount : null;
}

export const JSON_ARG: BooleanArgDef = { type: "boolean", alias: "j", description: "Print one JSON document" };
export const DIR_ARG: PositionalArgDef = { type: "positional", required: false, description: "Directory to start from (default: cwd)" };

