import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { writeFileAtomic } from "../core/atomic-write.ts";

/** Spec 6.10: the judge ("Jev") for rules the guard picked by vocabulary alone. */

export type JevStatus = "used" | "unavailable" | "unconfigured" | "disabled" | "invalid" | "cached" | "nothing_to_judge";
export type JevReport = { status: JevStatus; judged: number; dropped: number; min_noul: number };
export type JudgedRule = { path: string; description: string; constraints: readonly string[] };

export const JEV_DEADLINE_MS = 3_000;
export const VERDICT_TTL_MS = 10 * 60 * 1000;
const DEFAULT_MIN_NOUL = 0.6;

const ROUTES = {
  openrouter: { endpoint: "https://openrouter.ai/api/alpha/decisions", model: "typesafe/jev-1.13", env: "OPENROUTER_API_KEY" },
  typesafe: { endpoint: "https://api.typesafe.ai/v1/systemone", model: "jev-1.13.0", env: "TYPESAFE_API_KEY" },
} as const;
type Route = keyof typeof ROUTES;

const BOOLISH_TRUE = /^(true|yes|1|on)$/i;
const BOOLISH_FALSE = /^(false|no|0|off)$/i;
const MODEL = /^[A-Za-z0-9_~./-]{1,80}$/;
/** A local gateway or test stub on the loopback interface may stand in for the route's endpoint. */
const LOOPBACK = /^http:\/\/(?:127\.0\.0\.1|localhost|\[::1\])(?::\d{1,5})?(?:\/\S*)?$/;

const ModelsFileSchema = v.looseObject({
  jev: v.optional(
    v.looseObject({
      enabled: v.optional(v.union([v.boolean(), v.string(), v.number()])),
      route: v.optional(v.string()),
      model: v.optional(v.string()),
      endpoint: v.optional(v.string()),
      min_noul: v.optional(v.number()),
    }),
  ),
  providers: v.optional(v.record(v.string(), v.looseObject({ api_key: v.optional(v.string()) }))),
});

type JevConfig =
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

export function readJevConfig(root: string, env: Record<string, string | undefined>): JevConfig {
  let raw: string;
  try {
    raw = readFileSync(join(root, "aioson-models.json"), "utf8");
  } catch {
    return { state: "unconfigured", minNoul: DEFAULT_MIN_NOUL };
  }
  let parsed: v.InferOutput<typeof ModelsFileSchema>;
  try {
    const result = v.safeParse(ModelsFileSchema, JSON.parse(raw));
    if (!result.success) return { state: "invalid", minNoul: DEFAULT_MIN_NOUL };
    parsed = result.output;
  } catch {
    return { state: "invalid", minNoul: DEFAULT_MIN_NOUL };
  }
  const jev = parsed.jev;
  if (!jev) return { state: "unconfigured", minNoul: DEFAULT_MIN_NOUL };
  const minNoul = jev.min_noul ?? DEFAULT_MIN_NOUL;
  const routeName = (jev.route ?? "openrouter").trim().toLowerCase();
  const route: Route | null = routeName === "openrouter" ? "openrouter" : routeName === "typesafe" || routeName === "direct" ? "typesafe" : null;
  const enabled = boolish(jev.enabled);
  if (!route || enabled === null || !(minNoul > 0 && minNoul <= 1)) return { state: "invalid", minNoul: DEFAULT_MIN_NOUL };
  const model = jev.model ?? ROUTES[route].model;
  const endpoint = jev.endpoint ?? ROUTES[route].endpoint;
  if (!MODEL.test(model) || (endpoint !== ROUTES[route].endpoint && !LOOPBACK.test(endpoint))) return { state: "invalid", minNoul };
  if (enabled === false) return { state: "disabled", minNoul };
  const envKey = env[ROUTES[route].env]?.trim();
  const fileKey = parsed.providers?.[route]?.api_key?.trim();
  const usable = (key: string | undefined) => (key && !key.startsWith("YOUR_") ? key : undefined);
  const key = usable(envKey) ?? usable(fileKey);
  const ready = key !== undefined && (enabled === true || (enabled === undefined && usable(envKey) === undefined));
  if (!ready || key === undefined) return { state: "unconfigured", minNoul };
  return { state: "ready", endpoint, model, key, minNoul };
}

type Verdict = { keep: boolean; noul: number; at: string };
type VerdictCache = Record<string, Verdict>;

function cachePath(root: string): string {
  return join(root, ".aioson", "cache", "jev", "guard-verdicts.json");
}

function readCache(root: string): VerdictCache {
  try {
    const value: unknown = JSON.parse(readFileSync(cachePath(root), "utf8"));
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as VerdictCache) : {};
  } catch {
    return {};
  }
}

function fresh(verdict: Verdict | undefined, now: number): verdict is Verdict {
  return verdict !== undefined && typeof verdict.keep === "boolean" && now - Date.parse(verdict.at) < VERDICT_TTL_MS && Date.parse(verdict.at) <= now;
}

function writeCache(root: string, cache: VerdictCache, now: number): void {
  try {
    const dir = join(root, ".aioson", "cache", "jev");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, ".gitignore"), "*\n");
    const kept: VerdictCache = {};
    for (const [key, verdict] of Object.entries(cache)) if (fresh(verdict, now)) kept[key] = verdict;
    writeFileAtomic(cachePath(root), `${JSON.stringify(kept, null, 2)}\n`, 0o600);
  } catch {
    // The cache only saves requests; failing to write it changes nothing else.
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
  return {
    model,
    state: {
      file: rel,
      excerpt: content.slice(0, 1500),
      rules: rules.map((rule) => ({ path: rule.path, about: rule.description.slice(0, 300), says: rule.constraints.slice(0, 3) })),
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
  env: Record<string, string | undefined>;
  now?: number;
};

/** The rule paths to drop, and the report recorded with the injection. Any failure keeps every rule. */
export async function judge(request: JudgeRequest): Promise<{ drop: Set<string>; report: JevReport }> {
  const drop = new Set<string>();
  const config = readJevConfig(request.root, request.env);
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
