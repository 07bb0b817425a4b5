/**
 * The schema of `.aioson/hooks/kit.json`, in its own module so that a guard loads valibot's schema code only
 * when a project has a kit.json (a dynamic `import("valibot")` would pull the whole library into the bundle).
 */
import * as v from "valibot";
import type { GuardName } from "./config.ts";

const GUARD_NAMES: readonly GuardName[] = [
  "pre-commit-guard", "verify-claims", "context-confidence-check", "stop-checklist", "output-format",
  "skill-feedback", "subagent-audit", "lesson-injector", "session-context", "context-save",
];

function kitSchema() {
  const section = v.strictObject({
    enabled: v.optional(v.boolean()),
    agents: v.optional(v.array(v.pipe(v.string(), v.minLength(1)))),
    types: v.optional(v.array(v.pipe(v.string(), v.regex(/^[a-z][a-z0-9-]*$/)))),
    codexAsk: v.optional(v.picklist(["deny", "pass"])),
    maxPaths: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100))),
    dirs: v.optional(v.array(v.pipe(v.string(), v.minLength(1)))),
    limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50))),
    dir: v.optional(v.pipe(v.string(), v.minLength(1))),
  });
  const entries = Object.fromEntries(GUARD_NAMES.map((name) => [name, v.optional(section)]));
  return v.strictObject({ $schema: v.optional(v.string()), ...entries });
}

export type KitValidation = { ok: true; value: unknown } | { ok: false; where: string | null; message: string };

export function validateKitConfig(value: unknown): KitValidation {
  const parsed = v.safeParse(kitSchema(), value);
  if (parsed.success) return { ok: true, value: parsed.output };
  const issue = parsed.issues[0];
  return { ok: false, where: issue ? v.getDotPath(issue) : null, message: issue?.message ?? "invalid" };
}
