import { realpathSync } from "node:fs";
import { basename as pathBase, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { baseName, contextValue, loadCandidates, type Candidate, type Surface } from "./candidates.ts";
import { makeLookup, matches, matchPath, norm, withinPath, type Lookup } from "./match.ts";
import { semanticScore, semanticTerms, termNorm } from "./semantic.ts";
import type { BrokenDoc } from "../rules/load.ts";

/** Spec 6.5: the brief engine. */

export type BriefRequest = {
  root: string;
  agent: string;
  mode: "planning" | "executing";
  task: string;
  paths: readonly string[];
  feature?: string;
  semantic?: boolean;
  /** Limit the candidate surfaces (default: every surface). */
  surfaces?: readonly Surface[];
  /**
   * Keep only candidates routed by a strong signal (paths, task_types, triggers, aliases, entities): the only
   * ones the guard can inject (spec 6.6 filter 1). Their scores are unchanged; the rest are never scored.
   */
  strongOnly?: boolean;
};

export type BriefItem = {
  path: string;
  surface: Surface;
  load_tier: string;
  score: number;
  priority: number;
  reason: string;
  candidate: Candidate;
};

export type Confidence = "high" | "medium" | "low";
export type Gap = { code: string; message: string };

export type Brief = {
  agent: string;
  mode: string;
  task: string;
  paths: string[];
  feature: string;
  activeFeature: string;
  mustLoad: BriefItem[];
  shouldLoad: BriefItem[];
  semanticTerms: string[];
  semantic: boolean;
  stack: string;
  confidence: Confidence;
  gaps: Gap[];
  broken: BrokenDoc[];
};

const MUST_LOAD_CAP = 14;
const DESIGN_AGENTS = new Set(["dev", "deyvin", "qa", "tester", "pentester", "planner", "architect"]);
const PATH_AGENTS = new Set(["dev", "deyvin", "qa", "tester", "pentester"]);
const PROTECTED_REASON = /paths:|feature|task_types:|triggers:|aliases:|entities:|retrieval_intents:/;
const AGENT_ALWAYS = new Set(["dev-state.md", "memory-index.md"]);

function within(root: string, abs: string): boolean {
  return abs === root || abs.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** `abs` with its longest existing ancestor resolved through symlinks (the root is a real path). */
function realish(abs: string): string {
  let dir = abs;
  const rest: string[] = [];
  for (;;) {
    try {
      return join(realpathSync(dir), ...rest.reverse());
    } catch {
      const parent = dirname(dir);
      if (parent === dir) return abs;
      rest.push(pathBase(dir));
      dir = parent;
    }
  }
}

/** The project-relative form (with `/`) of a harness path, or null when it lies outside the project. */
export function insideProject(root: string, path: string): string | null {
  const clean = path.replaceAll("\\", "/");
  if (!isAbsolute(path) && !/^[A-Za-z]:\//.test(clean)) {
    const rel = clean.replace(/^(\.\/)+/, "");
    return within(root, resolve(root, rel)) ? rel : null;
  }
  const abs = resolve(path);
  if (within(root, abs)) return relative(root, abs).split(sep).join("/");
  const real = realish(abs);
  return within(root, real) ? relative(root, real).split(sep).join("/") : null;
}

/** A harness path inside the project, relative with `/`; anything else unchanged (with `/`). */
export function projectRelative(root: string, path: string): string {
  return insideProject(root, path) ?? path.replaceAll("\\", "/");
}

function effectiveTier(candidate: Candidate, agent: string): string {
  if (candidate.surface === "context" && (agent === "dev" || agent === "deyvin") && AGENT_ALWAYS.has(candidate.doc.name) && !candidate.tierDeclared) {
    return "always";
  }
  return candidate.loadTier;
}

function semanticEligible(candidate: Candidate, tier: string): boolean {
  if (tier === "always") return false;
  switch (candidate.surface) {
    case "bootstrap":
      return candidate.doc.name !== "current-state-archive.md";
    case "context":
      return candidate.featureSlug !== "" || candidate.doc.name === "design-doc.md" || candidate.doc.name === "readiness.md";
    default:
      return true;
  }
}

const haystacks = new WeakMap<Candidate, string>();

function haystack(candidate: Candidate): string {
  let text = haystacks.get(candidate);
  if (text === undefined) {
    text = termNorm([candidate.path, candidate.description, candidate.scope, candidate.tags.join(" "), candidate.searchText].join(" "));
    haystacks.set(candidate, text);
  }
  return text;
}

type ScoreContext = {
  agent: string;
  mode: string;
  lookup: Lookup;
  paths: readonly string[];
  activeFeature: string;
  terms: readonly string[];
  semantic: boolean;
  strongOnly: boolean;
};

/** The routing fields of spec 6.5, in reason order, with their points. */
const ROUTED: ReadonlyArray<readonly [string, "taskTypes" | "triggers" | "aliases" | "entities" | "intents", number]> = [
  ["task_types", "taskTypes", 40],
  ["triggers", "triggers", 40],
  ["aliases", "aliases", 35],
  ["entities", "entities", 30],
  ["retrieval_intents", "intents", 25],
];

function list(prefix: string, hits: readonly string[], max: number): string {
  return `${prefix}:${hits.slice(0, max).join(",")}`;
}

/** One candidate's score and reason; null when a rule of the table drops it. */
export function scoreCandidate(candidate: Candidate, ctx: ScoreContext): { score: number; reason: string; tier: string } | null {
  const reasons: string[] = [];
  let score = 0;
  if (candidate.agents.length > 0) {
    const agents = candidate.agents.map((a) => a.toLowerCase().replace(/^@/, ""));
    if (!agents.includes("all") && !agents.includes(ctx.agent)) return null;
  }
  if (candidate.modes.length > 0) {
    if (!candidate.modes.map((m) => m.toLowerCase()).includes(ctx.mode)) return null;
    score += 5;
    reasons.push(`mode:${ctx.mode}`);
  }
  const tier = effectiveTier(candidate, ctx.agent);
  if (tier === "always") {
    score += 100;
    reasons.push("load_tier:always");
  }
  let hard = false;
  let strong = false;
  const pathHits: string[] = [];
  for (const path of ctx.paths) for (const pattern of candidate.patterns) if (matchPath(path, pattern)) pathHits.push(`${path}~${pattern}`);
  if (pathHits.length > 0) {
    score += 10;
    hard = true;
    strong = true;
    reasons.push(list("paths", pathHits, 3));
  }
  // A requested path is the payload's or a model's: compared as a path, never compiled as a glob.
  const direct = ctx.paths.some((path) => withinPath(candidate.path, path));
  if (direct) {
    score += 10;
    hard = true;
    strong = true;
    reasons.push("paths:direct");
  }
  const slug = candidate.featureSlug.toLowerCase();
  if (slug) {
    const mentioned = ctx.lookup.text.includes(slug) || ctx.lookup.text.includes(slug.replace(/-/g, " "));
    const active = slug === ctx.activeFeature.toLowerCase();
    if (!active && !mentioned && !direct) return null;
    if (active) {
      score += 45;
      reasons.push(`feature:${slug}`);
    }
    if (mentioned) {
      score += 45;
      reasons.push(`feature-mentioned:${slug}`);
    }
    hard = true;
  }
  for (const [name, field, points] of ROUTED) {
    const hits = matches(ctx.lookup, candidate[field]);
    if (hits.length > 0) {
      score += points;
      hard = true;
      strong ||= name !== "retrieval_intents";
      reasons.push(list(name, hits, 3));
    }
  }
  if (ctx.strongOnly && !strong) return null;
  const tagHits = matches(ctx.lookup, candidate.tags);
  if (tagHits.length > 0) {
    score += 20;
    reasons.push(list("tags", tagHits, 3));
  }
  const described = [candidate.description, candidate.scope, baseName(candidate.path).replace(/\.md$/i, "").replace(/[-_]+/g, " ")].filter(Boolean);
  const descHits = matches(ctx.lookup, described);
  if (descHits.length > 0) {
    score += 20;
    reasons.push(list("description", descHits, 2));
  }
  if (ctx.semantic && semanticEligible(candidate, tier) && ctx.terms.length > 0) {
    const text = haystack(candidate);
    const matched = ctx.terms.filter((term) => text.includes(term));
    const minimum = candidate.surface === "docs" ? 4 : 3;
    const allowed = matched.length > 0 && !(tier === "justified" && matched.length < 3) && (hard || matched.length >= minimum);
    if (allowed) {
      score += semanticScore(candidate.surface, matched.length);
      reasons.push(list("semantic", matched, 6));
    }
  }
  if (score < (tier === "justified" ? 50 : 30)) return null;
  return { score: score + candidate.priority, reason: reasons.join("; "), tier };
}

function mustSurfaces(agent: string): ReadonlySet<Surface> {
  return new Set<Surface>(DESIGN_AGENTS.has(agent) ? ["rules", "design_governance"] : ["rules"]);
}

function capMustLoad(items: BriefItem[]): BriefItem[] {
  if (items.length <= MUST_LOAD_CAP) return items;
  let room = MUST_LOAD_CAP - items.filter((item) => item.load_tier === "always" || PROTECTED_REASON.test(item.reason)).length;
  return items.filter((item) => {
    if (item.load_tier === "always" || PROTECTED_REASON.test(item.reason)) return true;
    return room-- > 0;
  });
}

const STACKS: ReadonlyArray<[string, string]> = [
  ["laravel", "Laravel"],
  ["php", "PHP"],
  ["react", "React"],
  ["next", "Next.js"],
  ["node", "Node.js"],
];

export function buildBrief(request: BriefRequest): Brief {
  const { root, mode } = request;
  const agent = request.agent;
  const paths = request.paths.filter((p) => p.trim() !== "").map((p) => projectRelative(root, p));
  const feature = request.feature?.trim() ?? "";
  const activeFeature = feature || contextValue(root, "project-pulse.md", "active_feature") || contextValue(root, "dev-state.md", "active_feature");
  const lookup = makeLookup(norm(`${request.task} ${paths.join(" ")} ${activeFeature}`));
  const framework = contextValue(root, "project.context.md", "framework");
  const semantic = request.semantic !== false;
  const terms = semantic ? semanticTerms([request.task, paths.join(" "), feature, activeFeature], framework) : [];
  const { candidates, broken } = loadCandidates(root, request.surfaces);
  const ctx: ScoreContext = { agent, mode, lookup, paths, activeFeature, terms, semantic, strongOnly: request.strongOnly === true };
  const selected: BriefItem[] = [];
  for (const candidate of candidates) {
    const scored = scoreCandidate(candidate, ctx);
    if (!scored) continue;
    selected.push({
      path: candidate.path,
      surface: candidate.surface,
      load_tier: scored.tier,
      score: scored.score,
      priority: candidate.priority,
      reason: scored.reason,
      candidate,
    });
  }
  selected.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const must = mustSurfaces(agent);
  const mustLoad = capMustLoad(selected.filter((item) => item.load_tier === "always" || must.has(item.surface)));
  const mustSet = new Set(mustLoad);
  const shouldLoad = selected.filter((item) => !mustSet.has(item));
  const gaps: Gap[] = [];
  if (!request.task.trim()) gaps.push({ code: "missing_task", message: "No task was given; the brief cannot route by vocabulary." });
  if (mode === "executing" && PATH_AGENTS.has(agent) && paths.length === 0) {
    gaps.push({ code: "missing_paths", message: "Executing without target paths; path-scoped rules cannot be matched." });
  }
  if (mustLoad.length === 0) gaps.push({ code: "no_must_load", message: "No project rule or governance document was selected." });
  const low = gaps.some((gap) => gap.code === "missing_task") || mustLoad.length === 0;
  const confidence: Confidence = low ? "low" : gaps.length > 0 ? "medium" : "high";
  const stack = STACKS.find(([term]) => terms.includes(term))?.[1] ?? framework;
  return {
    agent,
    mode,
    task: request.task,
    paths,
    feature,
    activeFeature,
    mustLoad,
    shouldLoad,
    semanticTerms: terms,
    semantic,
    stack,
    confidence,
    gaps,
    broken,
  };
}
