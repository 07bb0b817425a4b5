import * as v from "valibot";

const BOOLISH = /^(1|true|yes|on|0|false|no|off)$/i;
const INTEGER = /^[+-]?\d+$/;
const POSITIVE = /^\+?[1-9]\d*$/;
/** A bracketed list must be closed on the same line (no multi-line YAML). */
const LIST = /^(?:[^[\]]*|\[[^[\]]*\])$/;

const list = v.optional(v.pipe(v.string(), v.regex(LIST, "a list must be written `[a, b]` on one line")));

/**
 * The frontmatter keys whose shape the guard depends on. Anything else is free text and passes;
 * a rule that fails is skipped (never half-applied) and reported by `context:brief`.
 */
export const RuleFrontmatterSchema = v.looseObject({
  guard: v.optional(v.pipe(v.string(), v.regex(BOOLISH, "`guard` must be true/false/yes/no/on/off/1/0"))),
  priority: v.optional(v.pipe(v.string(), v.regex(INTEGER, "`priority` must be an integer"))),
  max_file_lines: v.optional(v.pipe(v.string(), v.regex(POSITIVE, "`max_file_lines` must be a positive integer"))),
  max_function_lines: v.optional(v.pipe(v.string(), v.regex(POSITIVE, "`max_function_lines` must be a positive integer"))),
  triggers: list,
  paths: list,
  globs: list,
  entities: list,
  entity: list,
  aliases: list,
  alias: list,
  task_types: list,
  taskTypes: list,
  guard_surfaces: list,
  agents: list,
  modes: list,
  tags: list,
  enforcement: list,
});

/** Problems of one frontmatter block, as `key: message` lines; empty when valid. */
export function frontmatterProblems(data: Record<string, string>): string[] {
  const result = v.safeParse(RuleFrontmatterSchema, data);
  if (result.success) return [];
  return result.issues.map((issue) => {
    const key = issue.path?.map((item) => String(item.key)).join(".") ?? "";
    return key ? `${key}: ${issue.message}` : issue.message;
  });
}
