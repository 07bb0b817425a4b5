import * as v from "valibot";
import { MAX_PATTERN_CHARS } from "../brief/match.ts";
import { parseList } from "./frontmatter.ts";

const BOOLISH = /^(1|true|yes|on|0|false|no|off)$/i;
const INTEGER = /^[+-]?\d+$/;
const POSITIVE = /^\+?[1-9]\d*$/;
/** A bracketed list must be closed on the same line (no multi-line YAML). */
const LIST = /^(?:[^[\]]*|\[[^[\]]*\])$/;
const LIST_MESSAGE = "a list must be written `[a, b]` on one line";

/**
 * The frontmatter keys whose shape the guard depends on, each with the pattern its value must match.
 * Anything else is free text and passes; a rule that fails is skipped (never half-applied) and reported by
 * `context:brief`.
 */
const KEY_PATTERNS: ReadonlyArray<readonly [key: string, pattern: RegExp, message: string]> = [
  ["guard", BOOLISH, "`guard` must be true/false/yes/no/on/off/1/0"],
  ["guard_deny", BOOLISH, "`guard_deny` must be true/false/yes/no/on/off/1/0"],
  ["priority", INTEGER, "`priority` must be an integer"],
  ["max_file_lines", POSITIVE, "`max_file_lines` must be a positive integer"],
  ["max_function_lines", POSITIVE, "`max_function_lines` must be a positive integer"],
  ...["triggers", "paths", "globs", "entities", "entity", "aliases", "alias", "task_types", "taskTypes", "guard_surfaces", "agents", "modes", "tags", "enforcement"]
    .map((key) => [key, LIST, LIST_MESSAGE] as const),
];

/** Path patterns longer than the matcher takes match nothing (src/brief/match.ts): such a rule is reported instead. */
const PATTERN_KEYS: ReadonlySet<string> = new Set(["paths", "globs"]);
const PATTERN_MESSAGE = `a path pattern must be at most ${MAX_PATTERN_CHARS} characters`;

function patternsFit(value: string): boolean {
  return value.length <= MAX_PATTERN_CHARS || parseList(value).every((pattern) => pattern.length <= MAX_PATTERN_CHARS);
}

let schema: v.GenericSchema<Record<string, unknown>> | null = null;

/** The valibot schema of a rule's frontmatter, built from KEY_PATTERNS on first use. */
export function ruleFrontmatterSchema(): v.GenericSchema<Record<string, unknown>> {
  schema ??= v.looseObject(
    Object.fromEntries(
      KEY_PATTERNS.map(([key, pattern, message]) => [
        key,
        v.optional(PATTERN_KEYS.has(key) ? v.pipe(v.string(), v.regex(pattern, message), v.check(patternsFit, PATTERN_MESSAGE)) : v.pipe(v.string(), v.regex(pattern, message))),
      ]),
    ),
  );
  return schema;
}

function allMatch(data: Record<string, string>): boolean {
  for (const [key, pattern] of KEY_PATTERNS) {
    const value = data[key];
    if (value !== undefined && (typeof value !== "string" || !pattern.test(value) || (PATTERN_KEYS.has(key) && !patternsFit(value)))) return false;
  }
  return true;
}

/** Problems of one frontmatter block, as `key: message` lines; empty when valid. */
export function frontmatterProblems(data: Record<string, string>): string[] {
  // Nearly every rule is valid: the same patterns tested directly spare the schema run on a cold hook path.
  if (allMatch(data)) return [];
  const result = v.safeParse(ruleFrontmatterSchema(), data);
  if (result.success) return [];
  return result.issues.map((issue) => {
    const key = issue.path?.map((item) => String(item.key)).join(".") ?? "";
    return key ? `${key}: ${issue.message}` : issue.message;
  });
}
