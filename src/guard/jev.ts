import { join } from "node:path";
import * as v from "valibot";
import { readProjectFile, writeProjectFileAtomic } from "../core/project-fs.ts";
import { redactSecrets } from "../text/redact.ts";

/**
 * Spec 6.10: the judge ("Jev") for rules the guard picked by vocabulary alone.
 *
 * A project is untrusted (docs/security.md): the judge's endpoint, model and key come only from the user — the
 * environment (`OPENROUTER_API_KEY` / `TYPESAFE_API_KEY`) and the `jev` section of the user config file
 * (`src/core/user-config.ts`). The judge runs only when the user turned it on there. A project's
 * `aioson-models.json` may still opt out (`jev.enabled: false`) and tune `jev.min_noul` for its own rules; its
 * `route`, `model`, `endpoint` and `providers` are never read, so a project can neither point a user's key at a
 * host of its choosing (loopback included) nor make aioson send its code anywhere with a key it ships. What is sent
 * is redacted first.
 */

export type JevStatus = "used" | "unavailable" | "unconfigured" | "disabled" | "invalid" | "cached" | "nothing_to_judge";
export type JevReport = { status: JevStatus; judged: number; dropped: number; min_noul: number };
export type JudgedRule = { path: string; description: string; constraints: readonly string[] };

export const JEV_DEADLINE_MS = 3_000;
export const VERDICT_TTL_MS = 10 * 60 * 1000;
const DEFAULT_MIN_NOUL = 0.6;
/** The models file and the verdict cache are small; a FIFO, a folder or a larger file there is not read. */
const MAX_FILE_BYTES = 1024 * 1024;
const EXCERPT_MAX = 1_500;
/** The excerpt is redacted on a window wider than itself, so the cut never leaves half a secret unmatched. */
const REDACTION_WINDOW = 8_192;

const ROUTES = {
  openrouter: { endpoint: "https://openrouter.ai/api/alpha/decisions", model: "typesafe/jev-1.13", env: "OPENROUTER_API_KEY" },
  typesafe: { endpoint: "https://api.typesafe.ai/v1/systemone", model: "jev-1.13.0", env: "TYPESAFE_API_KEY" },
} as const;
type Route = keyof typeof ROUTES;

const BOOLISH_TRUE = /^(true|yes|1|on)$/i;
const BOOLISH_FALSE = /^(false|no|0|off)$/i;
const MODEL = /^[A-Za-z0-9_~./-]{1,80}$/;
/** A local gateway or test stub the user runs on the loopback interface may stand in for the route's endpoint. */
const LOOPBACK = /^http:\/\/(?:127\.0\.0\.1|localhost|\[::1\])(?::\d{1,5})?(?:\/\S*)?$/;

const Boolish = v.union([v.boolean(), v.string(), v.number()]);
const MinNoul = v.number();

/** The user config's judge settings (HOME is the user's). `providers` is the shape aioson-models.json had. */
const UserConfigSchema = v.looseObject({
  jev: v.optional(
    v.looseObject({
      enabled: v.optional(Boolish),
      route: v.optional(v.string()),
      model: v.optional(v.string()),
      endpoint: v.optional(v.string()),
      min_noul: v.optional(MinNoul),
      api_key: v.optional(v.string()),
    }),
  ),
  providers: v.optional(v.record(v.string(), v.looseObject({ api_key: v.optional(v.string()) }))),
});

/** What a project's aioson-models.json may still say about the judge; every other key is ignored. */
const ProjectFileSchema = v.looseObject({
  jev: v.optional(v.looseObject({ enabled: v.optional(Boolish), min_noul: v.optional(MinNoul) })),
});

export type JevConfig =
  | { state: "ready"; endpoint: string; model: string; key: string; minNoul: number }
  | { state: "unconfigured" | "disabled" | "invalid"; minNoul: number };

function boolish(value: boolean | string | number | undefined): boolean | null | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "boolean") return value;
  const text = String(value).trim();
  if (BOOLISH_TRUE.test(text)) return true;
  if (BOOLISH_FALSE.test(text)) return false;
  return null;
}

function validMinNoul(value: number | undefined): boolean {
  return value === undefined || (value > 0 && value <= 1);
}

/** The project's opt-out and threshold; absent file or section: no opinion. */
type ProjectJev = { state: "none" } | { state: "invalid" } | { state: "ok"; enabled: boolean | undefined; minNoul: number | undefined };

function readProjectJev(root: string): ProjectJev {
  const read = readProjectFile(root, join(root, "aioson-models.json"), MAX_FILE_BYTES);
  if (read.kind === "missing") return { state: "none" };
  if (read.kind !== "ok") return { state: "invalid" };
  try {
    const parsed = v.safeParse(ProjectFileSchema, JSON.parse(read.text));
    if (!parsed.success) return { state: "invalid" };
    const jev = parsed.output.jev;
    if (!jev) return { state: "none" };
    const enabled = boolish(jev.enabled);
    if (enabled === null || !validMinNoul(jev.min_noul)) return { state: "invalid" };
    return { state: "ok", enabled, minNoul: jev.min_noul };
  } catch {
    return { state: "invalid" };
  }
}

/** A key that is really a key: placeholders (`YOUR_…`) and blanks are none. */
function usable(key: string | undefined): string | undefined {
  const trimmed = key?.trim();
  return trimmed && !trimmed.startsWith("YOUR_") ? trimmed : undefined;
}

/**
 * The judge's configuration: the user's (environment and user config) first, then the project's opt-out and
 * threshold. Ready when the user enabled it and a key exists, or left `enabled` unset and wrote a key into the user
 * config (an environment key alone, often set for other tools, does not turn the judge on).
 */
export function readJevConfig(root: string, env: Readonly<Record<string, string | undefined>>, userConfig: unknown): JevConfig {
  const user = v.safeParse(UserConfigSchema, userConfig ?? {});
  if (!user.success) return { state: "invalid", minNoul: DEFAULT_MIN_NOUL };
  const jev = user.output.jev;
  if (!jev) return { state: "unconfigured", minNoul: DEFAULT_MIN_NOUL };
  const project = readProjectJev(root);
  if (project.state === "invalid") return { state: "invalid", minNoul: DEFAULT_MIN_NOUL };
  const routeName = (jev.route ?? "openrouter").trim().toLowerCase();
  const route: Route | null = routeName === "openrouter" ? "openrouter" : routeName === "typesafe" || routeName === "direct" ? "typesafe" : null;
  const enabled = boolish(jev.enabled);
  if (!route || enabled === null || !validMinNoul(jev.min_noul)) return { state: "invalid", minNoul: DEFAULT_MIN_NOUL };
  const minNoul = (project.state === "ok" ? project.minNoul : undefined) ?? jev.min_noul ?? DEFAULT_MIN_NOUL;
  const model = jev.model ?? ROUTES[route].model;
  const endpoint = jev.endpoint ?? ROUTES[route].endpoint;
  if (!MODEL.test(model) || (endpoint !== ROUTES[route].endpoint && !LOOPBACK.test(endpoint))) return { state: "invalid", minNoul };
  if (enabled === false || (project.state === "ok" && project.enabled === false)) return { state: "disabled", minNoul };
  const envKey = usable(env[ROUTES[route].env]);
  const fileKey = usable(jev.api_key) ?? usable(user.output.providers?.[route]?.api_key);
  const key = envKey ?? fileKey;
  const ready = key !== undefined && (enabled === true || (enabled === undefined && fileKey !== undefined));
  if (!ready || key === undefined) return { state: "unconfigured", minNoul };
  return { state: "ready", endpoint, model, key, minNoul };
}

const VerdictSchema = v.object({ keep: v.boolean(), noul: v.pipe(v.number(), v.minValue(0), v.maxValue(1)), at: v.string() });
type Verdict = v.InferOutput<typeof VerdictSchema>;
type VerdictCache = Record<string, Verdict>;

function cacheDir(root: string): string {
  return join(root, ".aioson", "cache", "jev");
}

/** The cache is a project file: entries are validated like a verdict the judge returned, the rest is dropped. */
function readCache(root: string): VerdictCache {
  const cache: VerdictCache = {};
  const read = readProjectFile(root, join(cacheDir(root), "guard-verdicts.json"), MAX_FILE_BYTES);
  if (read.kind !== "ok") return cache;
  try {
    const value: unknown = JSON.parse(read.text);
    if (value === null || typeof value !== "object" || Array.isArray(value)) return cache;
    for (const [key, entry] of Object.entries(value)) {
      const verdict = v.safeParse(VerdictSchema, entry);
      if (verdict.success) cache[key] = verdict.output;
    }
  } catch {
    // No cache, or an unreadable one: every rule is asked.
  }
  return cache;
}

function fresh(verdict: Verdict | undefined, now: number): verdict is Verdict {
  return verdict !== undefined && now - Date.parse(verdict.at) < VERDICT_TTL_MS && Date.parse(verdict.at) <= now;
}

function writeCache(root: string, cache: VerdictCache, now: number): void {
  try {
    const dir = cacheDir(root);
    writeProjectFileAtomic(root, join(dir, ".gitignore"), "*\n");
    const kept: VerdictCache = {};
    for (const [key, verdict] of Object.entries(cache)) if (fresh(verdict, now)) kept[key] = verdict;
    writeProjectFileAtomic(root, join(dir, "guard-verdicts.json"), `${JSON.stringify(kept, null, 2)}\n`, 0o600);
  } catch {
    // The cache only saves requests; failing to write it (or refusing a symlinked folder) changes nothing else.
  }
}

const AnswerSchema = v.object({ type: v.optional(v.literal("noul")), noul: v.pipe(v.number(), v.minValue(0), v.maxValue(1)) });
const ResponseSchema = v.looseObject({ answers: v.record(v.string(), v.unknown()) });

function requestBody(model: string, rel: string, content: string, rules: readonly JudgedRule[]): unknown {
  const questions: Record<string, unknown> = {};
  rules.forEach((_, i) => {
    questions[`applies_${i}`] = {
      type: "noul",
      instructions: "Does rules[i] govern the change being written to file? Sharing a word with the file is not enough.",
      criteria: {
        true: "The change builds or edits what the rule governs",
        false: "The change is about something else, or only mentions the rule's subject",
      },
    };
  });
  // Everything that leaves the machine is redacted first; the excerpt before it is cut (see REDACTION_WINDOW).
  return {
    model,
    state: {
      file: redactSecrets(rel),
      excerpt: redactSecrets(content.slice(0, REDACTION_WINDOW)).slice(0, EXCERPT_MAX),
      rules: rules.map((rule) => ({
        path: redactSecrets(rule.path),
        about: redactSecrets(rule.description.slice(0, REDACTION_WINDOW)).slice(0, 300),
        says: rule.constraints.slice(0, 3).map((constraint) => redactSecrets(constraint)),
      })),
    },
    questions,
  };
}

/** noul per rule index, or null when any answer is missing or invalid. */
async function ask(config: Extract<JevConfig, { state: "ready" }>, body: unknown, count: number): Promise<number[] | null> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), JEV_DEADLINE_MS);
  try {
    const response = await fetch(config.endpoint, {
      method: "POST",
      headers: { authorization: `Bearer ${config.key}`, "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    if (!response.ok) return null;
    const parsed = v.safeParse(ResponseSchema, JSON.parse(await response.text()));
    if (!parsed.success) return null;
    const nouls: number[] = [];
    for (let i = 0; i < count; i++) {
      const answer = v.safeParse(AnswerSchema, parsed.output.answers[`applies_${i}`]);
      if (!answer.success) return null;
      nouls.push(answer.output.noul);
    }
    return nouls;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

export type JudgeRequest = {
  root: string;
  sessionId: string | null;
  rel: string;
  content: string;
  rules: readonly JudgedRule[];
  env: Readonly<Record<string, string | undefined>>;
  /** The user config file's content (`readUserConfig`), the only non-environment source of the judge's settings. */
  userConfig: unknown;
  now?: number;
};

/** The rule paths to drop, and the report recorded with the injection. Any failure keeps every rule. */
export async function judge(request: JudgeRequest): Promise<{ drop: Set<string>; report: JevReport }> {
  const drop = new Set<string>();
  const config = readJevConfig(request.root, request.env, request.userConfig);
  const report: JevReport = { status: "nothing_to_judge", judged: 0, dropped: 0, min_noul: config.minNoul };
  if (request.rules.length === 0) return { drop, report };
  if (config.state !== "ready") return { drop, report: { ...report, status: config.state } };
  const now = request.now ?? Date.now();
  const cache = readCache(request.root);
  const keyOf = (rule: JudgedRule) => `${request.sessionId ?? ""}|${rule.path}|${request.rel}`;
  const pending: JudgedRule[] = [];
  for (const rule of request.rules) {
    const cached = cache[keyOf(rule)];
    if (fresh(cached, now)) {
      if (!cached.keep) drop.add(rule.path);
    } else pending.push(rule);
  }
  if (pending.length === 0) return { drop, report: { ...report, status: "cached", dropped: drop.size } };
  const nouls = await ask(config, requestBody(config.model, request.rel, request.content, pending), pending.length);
  if (!nouls) return { drop, report: { ...report, status: "unavailable", dropped: drop.size } };
  const at = new Date(now).toISOString();
  pending.forEach((rule, i) => {
    const noul = nouls[i] as number;
    const keep = noul >= config.minNoul;
    if (!keep) drop.add(rule.path);
    cache[keyOf(rule)] = { keep, noul, at };
  });
  writeCache(request.root, cache, now);
  return { drop, report: { ...report, status: "used", judged: pending.length, dropped: drop.size } };
}
