import { basename } from "node:path";
import { isTruthy, parseList } from "../rules/frontmatter.ts";
import { isReadme, listMarkdown, type BrokenDoc, type MarkdownDoc } from "../rules/load.ts";

/** Spec 6.5 candidate surfaces. */
export type Surface = "rules" | "docs" | "design_governance" | "context" | "bootstrap" | "feature_dossier";

const SURFACES: ReadonlyArray<{ surface: Surface; dir: string; recursive: boolean }> = [
  { surface: "rules", dir: ".aioson/rules", recursive: true },
  { surface: "docs", dir: ".aioson/docs", recursive: true },
  { surface: "design_governance", dir: ".aioson/design-docs", recursive: false },
  { surface: "context", dir: ".aioson/context", recursive: false },
  { surface: "bootstrap", dir: ".aioson/context/bootstrap", recursive: false },
  { surface: "feature_dossier", dir: ".aioson/context/features", recursive: true },
];

export type Candidate = {
  doc: MarkdownDoc;
  path: string;
  surface: Surface;
  description: string;
  agents: string[];
  modes: string[];
  taskTypes: string[];
  triggers: string[];
  aliases: string[];
  entities: string[];
  intents: string[];
  patterns: string[];
  priority: number;
  scope: string;
  featureSlug: string;
  tags: string[];
  loadTier: string;
  /** `load_tier` was declared in the frontmatter (inference never overrides it). */
  tierDeclared: boolean;
  searchText: string;
  guard: boolean;
  guardSurfaces: string[];
};

const CONTEXT_FEATURE = /^(prd|requirements|spec|design-doc|readiness|implementation-plan|ui-spec|scope-check)-(.+)\.md$/;
const SEARCH_TEXT_MAX = 100_000;

function first(data: Record<string, string>, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const value = data[key];
    if (value !== undefined && value !== "") return value;
  }
  return undefined;
}

function clampPriority(value: string | undefined): number {
  const n = value === undefined ? 0 : Number.parseInt(value, 10);
  return Number.isFinite(n) ? Math.max(0, Math.min(100, n)) : 0;
}

export function toCandidate(doc: MarkdownDoc, surface: Surface): Candidate {
  const data = doc.frontmatter.data;
  const tier = first(data, "load_tier");
  const candidate: Candidate = {
    doc,
    path: doc.rel,
    surface,
    description: first(data, "description", "name") ?? doc.name.replace(/\.md$/i, ""),
    agents: parseList(data.agents),
    modes: parseList(data.modes),
    taskTypes: parseList(first(data, "task_types", "taskTypes")),
    triggers: parseList(data.triggers),
    aliases: parseList(first(data, "aliases", "alias")),
    entities: parseList(first(data, "entities", "entity")),
    intents: parseList(first(data, "retrieval_intents", "intents", "intent")),
    patterns: parseList(first(data, "paths", "globs")),
    priority: clampPriority(data.priority),
    scope: data.scope ?? "",
    featureSlug: first(data, "feature_slug", "feature") ?? "",
    tags: parseList(data.tags),
    loadTier: (tier ?? "trigger").toLowerCase(),
    tierDeclared: tier !== undefined,
    searchText: doc.text.slice(0, SEARCH_TEXT_MAX),
    guard: isTruthy(data.guard),
    guardSurfaces: parseList(data.guard_surfaces).map((s) => s.toLowerCase()),
  };
  if (surface === "context") {
    if ((doc.name === "project.context.md" || doc.name === "project-pulse.md") && !candidate.tierDeclared) candidate.loadTier = "always";
    const feature = CONTEXT_FEATURE.exec(doc.name);
    if (feature) {
      const [, kind, slug] = feature as unknown as [string, string, string];
      if (candidate.tags.length === 0) candidate.tags = [kind, "feature"];
      if (!candidate.featureSlug) candidate.featureSlug = slug;
    }
  }
  if (surface === "feature_dossier" && !candidate.featureSlug) {
    const parts = doc.rel.split("/");
    candidate.featureSlug = parts[parts.length - 2] ?? "";
  }
  return candidate;
}

export type CandidateSet = { candidates: Candidate[]; broken: BrokenDoc[] };

/** Every brief candidate of the project, in surface order then path order. */
export function loadCandidates(root: string, surfaces: readonly Surface[] = SURFACES.map((s) => s.surface)): CandidateSet {
  const candidates: Candidate[] = [];
  const broken: BrokenDoc[] = [];
  for (const { surface, dir, recursive } of SURFACES) {
    if (!surfaces.includes(surface)) continue;
    const listing = listMarkdown(root, dir, recursive);
    broken.push(...listing.broken);
    for (const doc of listing.docs) {
      if (isReadme(doc.name)) continue;
      if (surface === "feature_dossier" && doc.name !== "dossier.md") continue;
      candidates.push(toCandidate(doc, surface));
    }
  }
  return { candidates, broken };
}

/** A frontmatter value of a context file (`active_feature`, `framework`), `none`-like values empty. */
export function contextValue(root: string, file: string, key: string): string {
  const doc = listMarkdown(root, ".aioson/context", false).docs.find((d) => d.name === file);
  const value = doc?.frontmatter.data[key]?.trim() ?? "";
  return /^(none|-none-|-)$/i.test(value) ? "" : value;
}

export function baseName(path: string): string {
  return basename(path.replaceAll("\\", "/"));
}
