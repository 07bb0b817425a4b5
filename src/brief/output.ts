import { ruleConstraints } from "../guard/constraints.ts";
import type { Brief, BriefItem } from "./engine.ts";
import { terminalText } from "../text/terminal.ts";

/** Spec 8: the `context:brief --json` object, its human lines and its `brief_built` telemetry payload. */

const MAX_CONSTRAINTS = 20;

function item(entry: BriefItem) {
  return { path: entry.path, surface: entry.surface, load_tier: entry.load_tier, score: entry.score, priority: entry.priority, reason: entry.reason };
}

function aggregate(brief: Brief): { constraints: string[]; forbidden: string[] } {
  const constraints: string[] = [];
  const forbidden: string[] = [];
  for (const entry of brief.mustLoad) {
    if (entry.surface !== "rules") continue;
    const own = ruleConstraints(entry.candidate.doc.text, brief.stack);
    for (const c of own.constraints) if (!constraints.includes(c)) constraints.push(c);
    for (const f of own.forbidden) if (!forbidden.includes(f)) forbidden.push(f);
  }
  return { constraints: constraints.slice(0, MAX_CONSTRAINTS), forbidden: forbidden.slice(0, MAX_CONSTRAINTS) };
}

export function briefJson(brief: Brief) {
  const { constraints, forbidden } = aggregate(brief);
  return {
    ok: true,
    agent: brief.agent,
    mode: brief.mode,
    task: brief.task,
    paths: brief.paths,
    feature: brief.feature || null,
    active_feature: brief.activeFeature || null,
    intent: {
      agent: brief.agent,
      mode: brief.mode,
      role: brief.agent,
      operation: brief.mode === "executing" ? "implement" : "plan",
      stack: brief.stack || null,
      concerns: [],
    },
    must_load: brief.mustLoad.map(item),
    should_load: brief.shouldLoad.map(item),
    constraints,
    forbidden_patterns: forbidden,
    suggested_structure: [],
    verification_hints: [],
    review_criteria: [],
    memory: [],
    related: [],
    selected_count: brief.mustLoad.length + brief.shouldLoad.length,
    semantic: { enabled: brief.semantic, terms: brief.semanticTerms },
    confidence: brief.confidence,
    gaps: brief.gaps,
    fallback_used: false,
    invalid_rules: brief.broken.map((b) => ({ path: b.rel, problem: b.problem })),
  };
}

export function briefLines(brief: Brief): string[] {
  const lines = [
    `Context brief for @${brief.agent} (${brief.mode})`,
    `Task: ${brief.task || "(none)"}`,
    `Intent: ${brief.mode === "executing" ? "implement" : "plan"}${brief.stack ? ` · stack ${brief.stack}` : ""}`,
    `Confidence: ${brief.confidence}`,
    "Must load:",
    ...(brief.mustLoad.length > 0 ? brief.mustLoad.map((e) => `- ${e.path} [${e.surface}] ${e.reason}`) : ["- (none)"]),
  ];
  if (brief.shouldLoad.length > 0) lines.push("Should load:", ...brief.shouldLoad.map((e) => `- ${e.path} [${e.surface}] ${e.reason}`));
  const { constraints, forbidden } = aggregate(brief);
  if (constraints.length > 0) lines.push("Constraints:", ...constraints.map((c) => `- ${c}`));
  if (forbidden.length > 0) lines.push("Forbidden:", ...forbidden.map((f) => `- ${f}`));
  if (brief.gaps.length > 0) lines.push("Gaps:", ...brief.gaps.map((g) => `- ${g.code}: ${g.message}`));
  if (brief.broken.length > 0) lines.push("Skipped rule files (fix their frontmatter):", ...brief.broken.map((b) => `- ${b.rel}: ${b.problem}`));
  return lines.map(terminalText);
}

export function briefTelemetry(brief: Brief): Record<string, unknown> {
  return {
    agent_name: brief.agent,
    task: brief.task,
    paths: brief.paths,
    feature_slug: brief.feature || brief.activeFeature || null,
    must_load: brief.mustLoad.map((e) => e.path),
    should_load: brief.shouldLoad.map((e) => e.path),
    skills: [],
    related: [],
    confidence: brief.confidence,
    generic_task: false,
  };
}
