import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import { buildBrief, insideProject, type BriefItem, type Confidence } from "../brief/engine.ts";
import { matchPath } from "../brief/match.ts";
import { readProjectText } from "../core/project-read.ts";
import { dbPath } from "../store/paths.ts";
import { resolveGuardAgent } from "./agent.ts";
import { ruleConstraints } from "./constraints.ts";
import type { ViolationBlock } from "./enforce.ts";
import { formatDenial, formatInjection, type VocabularyBlock } from "./format.ts";
import type { JevReport } from "./jev.ts";
import { judgedKind, surfaceKinds } from "./kinds.ts";
import { afterContent, lf, pendingWrite, type PendingWrite } from "./pending.ts";

/** Spec 6.2: the context:guard pipeline, from a harness event to the wire payload. */

export type GuardInput = {
  root: string | null;
  event: Record<string, unknown> | null;
  agentOption: string | undefined;
  env: Record<string, string | undefined>;
  jev: boolean;
};

export type WirePayload =
  | Record<string, never>
  | { hookSpecificOutput: { hookEventName: "PreToolUse"; additionalContext: string } }
  | { hookSpecificOutput: { hookEventName: "PreToolUse"; permissionDecision: "deny"; permissionDecisionReason: string } };

export type GuardResult = {
  payload: WirePayload;
  rules: string[];
  /** A `guard_deny` rule turned a measured violation into a deny (the rules are the denying ones). */
  denied?: boolean;
  /** The brief's confidence when something was injected (else null). */
  confidence: Confidence | null;
  agent: string | null;
};

const EMPTY: GuardResult = { payload: {}, rules: [], confidence: null, agent: null };
const STRONG = /(?:^|; )(?:triggers|paths|entities|aliases|task_types):/;
const SALIENT = /(?:^|; )(?:entities|aliases):/;
/** Spec 6.10 default, repeated here so that a guard that never judges does not load the judge. */
const DEFAULT_MIN_NOUL = 0.6;
const CONFIDENCE_RANK: Readonly<Record<Confidence, number>> = { low: 0, medium: 1, high: 2 };
/** Files larger than this are not read for the before/after comparison. */
const MAX_BEFORE_BYTES = 4 * 1024 * 1024;

/** Spec 6.4: the artifact's own name and text, never a keyword list the model wrote. */
export function deriveQuery(file: string, content: string): string {
  const name = basename(file.replaceAll("\\", "/")).replace(/\.[^.]*$/, "").replace(/[_-]+/g, " ");
  return `${name} ${content.slice(0, 4_000)}`.trim();
}

/** Spec 6.6: the five filters. */
export function passesFilters(item: BriefItem, confidence: Confidence, file: string, rel: string, surfaces: readonly string[]): boolean {
  if (item.surface !== "rules" || !STRONG.test(item.reason)) return false;
  if (CONFIDENCE_RANK[confidence] < CONFIDENCE_RANK.medium) return false;
  const { patterns, guardSurfaces, guard } = item.candidate;
  const raw = file.replaceAll("\\", "/");
  if (patterns.length > 0 && !patterns.some((pattern) => matchPath(raw, pattern) || matchPath(rel, pattern))) return false;
  if (guardSurfaces.length > 0 && !guardSurfaces.some((kind) => surfaces.includes(kind))) return false;
  return SALIENT.test(item.reason) || guard;
}

/** The file before the write: a regular file (a FIFO there would hang the hook) with no symlink on the way, within the bound. */
function readBefore(root: string, abs: string): string | null {
  const text = readProjectText(root, abs, MAX_BEFORE_BYTES);
  return text === null ? null : lf(text);
}

async function violationsOf(root: string, write: PendingWrite, rel: string, agent: string): Promise<ViolationBlock[]> {
  const kind = judgedKind(rel);
  if (!kind || !write.file) return [];
  const abs = join(root, ...rel.split("/"));
  const before = write.before !== undefined ? write.before : readBefore(root, abs);
  const after = afterContent(write, before);
  if (after === null) return [];
  const { enforce } = await import("./enforce.ts");
  return enforce({ root, rel, kind, before, after, agent });
}

/**
 * A measured HIGH violation of a rule that opted in with `guard_deny: true`: Claude Code's documented PreToolUse deny,
 * so the write never lands and the model reads why (as the tool's error result) before it tries again. Recorded as a
 * `guard_decision` (kit/decisions.ts), not as a `guard_injected`: nothing was injected and the file never held it.
 */
async function deny(root: string, write: PendingWrite, rel: string, agent: string, blocks: readonly ViolationBlock[], stack: string): Promise<GuardResult> {
  const denial = formatDenial(write.file, rel, blocks, (path) => ruleConstraints(blocks.find((block) => block.owner.rel === path)?.owner.text ?? "", stack));
  if (!denial) return { ...EMPTY, agent };
  if (existsSync(dbPath(root))) {
    const { recordGuardDecision } = await import("../kit/decisions.ts");
    recordGuardDecision(root, {
      guard: "context:guard",
      decision: "deny",
      reason: denial.text,
      harness: "claude",
      tool: write.tool,
      sessionId: write.sessionId,
      agent,
      extra: { file: rel, rules: denial.rules, violations: blocks.map((block) => ({ rule: block.owner.rel, checker: block.checker, kind: block.kind, keys: block.keys })) },
    });
  }
  return {
    payload: { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: denial.text } },
    rules: denial.rules,
    confidence: null,
    agent,
    denied: true,
  };
}

export async function runGuard(input: GuardInput): Promise<GuardResult> {
  const { root, event } = input;
  if (!root || !event) return EMPTY;
  const write = pendingWrite(event);
  if (!write) return EMPTY;
  const agent = await resolveGuardAgent({ option: input.agentOption, eventAgent: write.eventAgent, env: input.env.AIOSON_AGENT, root });
  // Rules govern the project: a write outside it (a temp file, another checkout) is none of their business.
  const rel = write.file ? insideProject(root, write.file) : "";
  if (rel === null) return { ...EMPTY, agent };
  const query = deriveQuery(write.file, write.content);
  if (!query) return { ...EMPTY, agent };
  const request = { root, agent, mode: "executing", task: query, paths: write.file ? [write.file] : [] } as const;
  // Only rules routed by a strong signal can pass filter 1: other surfaces are not read, other rules not scored.
  const brief = buildBrief({ ...request, surfaces: ["rules"], strongOnly: true });
  const surfaces = surfaceKinds(write.file, write.content);
  const picked = brief.mustLoad.filter((item) => passesFilters(item, brief.confidence, write.file, rel, surfaces));
  const vocabulary: VocabularyBlock[] = picked.map((item) => ({ path: item.path, ...ruleConstraints(item.candidate.doc.text, brief.stack) }));
  const violations = await violationsOf(root, write, rel, agent);
  const denying = violations.filter((block) => block.owner.deny);
  if (denying.length > 0) return deny(root, write, rel, agent, denying, brief.stack);
  const owners = new Set(violations.map((block) => block.owner.rel));
  let jevReport: JevReport;
  let kept = vocabulary;
  const judged = vocabulary.filter((block) => !owners.has(block.path) && (block.constraints.length > 0 || block.forbidden.length > 0));
  // Only the user turns the judge on (docs/security.md): without a `jev` section in the user config there is no
  // judge, answered without loading the judge module.
  const userConfig = input.jev && judged.length > 0 ? (await import("../core/user-config.ts")).readUserConfig(input.env) : null;
  if (userConfig?.kind === "ok" && userConfig.config.jev !== undefined) {
    const { judge } = await import("./jev.ts");
    const descriptions = new Map(picked.map((item) => [item.path, item.candidate.description]));
    const verdict = await judge({
      root,
      sessionId: write.sessionId,
      rel,
      content: write.content,
      rules: judged.map((block) => ({ path: block.path, description: descriptions.get(block.path) ?? "", constraints: block.constraints })),
      env: input.env,
      userConfig: userConfig.config,
    });
    jevReport = verdict.report;
    kept = vocabulary.filter((block) => !verdict.drop.has(block.path));
  } else {
    const status = !input.jev ? "disabled" : judged.length === 0 ? "nothing_to_judge" : userConfig?.kind === "invalid" ? "invalid" : "unconfigured";
    jevReport = { status, judged: 0, dropped: 0, min_noul: DEFAULT_MIN_NOUL };
  }
  const ownerText = new Map(violations.map((block) => [block.owner.rel, block.owner.text]));
  const injection = formatInjection(write.file, rel, kept, violations, (path) => ruleConstraints(ownerText.get(path) ?? "", brief.stack));
  if (!injection) return { ...EMPTY, agent };
  // Nothing routed means the narrow brief cannot tell "no must-load at all" from "none of them strong":
  // a violation-only injection then takes its confidence from the whole brief.
  const confidence = brief.mustLoad.length > 0 ? brief.confidence : buildBrief(request).confidence;
  if (existsSync(dbPath(root))) {
    const { recordInjection } = await import("./record.ts");
    recordInjection(root, {
      agent,
      tool: write.tool,
      rel,
      sessionId: write.sessionId,
      rules: injection.rules,
      violations,
      confidence,
      jev: jevReport,
    });
  }
  return {
    payload: { hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: injection.text } },
    rules: injection.rules,
    confidence,
    agent,
  };
}
