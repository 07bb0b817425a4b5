import { join } from "node:path";
import { matchPath } from "../brief/match.ts";
import { readProjectText } from "../core/project-read.ts";
import { checkDialogs } from "./checkers/dialogs.ts";
import { checkNaming } from "./checkers/naming.ts";
import { checkFileSize, checkFunctionSize } from "./checkers/size.ts";
import type { CheckFile, CheckOptions, Checker, Finding } from "./checkers/types.ts";
import { appliesToAgent, discoverGovernance, type CheckerId, type GovernanceDoc } from "./governance.ts";
import type { JudgedKind } from "./kinds.ts";
import { namedCode } from "./markdown.ts";

/** Spec 6.9 edit-time enforcement: the violations an edit introduces. */

const CHECKERS: Readonly<Record<CheckerId, Checker>> = {
  "source-code-language": checkNaming,
  "no-native-dialogs": (file) => checkDialogs(file),
  "file-size": checkFileSize,
  "function-size": checkFunctionSize,
};

export type ViolationBlock = {
  checker: CheckerId;
  owner: GovernanceDoc;
  kind: JudgedKind;
  /** Every fresh finding (the injection shows at most 5). */
  findings: Finding[];
  keys: string[];
};

export type EnforceRequest = {
  root: string;
  rel: string;
  kind: JudgedKind;
  before: string | null;
  after: string;
  agent: string;
  /** context:usage re-check: uncapped, cited paths count even when they exist, no baseline. */
  recheck?: boolean;
};

export function diffKey(finding: Finding): string {
  return `${finding.category}|${finding.token || finding.snippet || finding.message}|${finding.scope ?? ""}|${finding.file ?? ""}`;
}

/** One directory = one decision: directory findings collapse to `category|scope`. */
function dedupeKey(finding: Finding): string {
  return finding.scope?.startsWith("dir:") ? `${finding.category}|${finding.scope}` : diffKey(finding);
}

export function findingKey(rule: string, finding: Finding, rel: string): string {
  const scope = finding.scope?.startsWith("dir:") ? finding.scope : `file:${finding.file ?? rel}`;
  return `${rule}|${finding.category}|${scope}|${finding.token || finding.message}`;
}

/** Accepted debt is a list of keys; a larger file (or a FIFO, which would hang the guard) is not read. */
const BASELINE_MAX_BYTES = 4 * 1024 * 1024;

export function readBaseline(root: string): Set<string> {
  const text = readProjectText(root, join(root, ".aioson", "context", "rules-baseline.json"), BASELINE_MAX_BYTES);
  if (text === null) return new Set();
  try {
    const value: unknown = JSON.parse(text);
    const accepted = (value as { accepted?: unknown } | null)?.accepted;
    return new Set(Array.isArray(accepted) ? accepted.filter((k): k is string => typeof k === "string") : []);
  } catch {
    return new Set();
  }
}

function filesOf(root: string, rel: string, kind: JudgedKind, text: string | null, includeExisting: boolean): CheckFile[] {
  if (text === null) return [];
  if (kind === "code") return [{ rel, lines: text.split("\n"), reportFile: rel }];
  return namedCode(root, text, includeExisting);
}

function limit(docs: readonly GovernanceDoc[], pick: (doc: GovernanceDoc) => number | null, fallback: number): number {
  const binding = docs.filter((d) => d.authority === "binding").map(pick).filter((n): n is number => n !== null);
  if (binding.length > 0) return Math.min(...binding);
  const any = docs.map(pick).filter((n): n is number => n !== null);
  return any.length > 0 ? Math.min(...any) : fallback;
}

function run(checker: Checker, files: readonly CheckFile[], options: CheckOptions): Finding[] {
  const out: Finding[] = [];
  for (const file of files) {
    try {
      out.push(...checker(file, options));
    } catch {
      // A checker that throws yields no findings: enforcement never blocks a write.
    }
  }
  return out;
}

function inScope(doc: GovernanceDoc, rel: string): boolean {
  return doc.patterns.length === 0 || doc.patterns.some((pattern) => matchPath(rel, pattern));
}

export function enforce(request: EnforceRequest): ViolationBlock[] {
  const docs = discoverGovernance(request.root);
  if (docs.length === 0) return [];
  const recheck = request.recheck === true;
  const afterFiles = filesOf(request.root, request.rel, request.kind, request.after, recheck);
  const beforeFiles = filesOf(request.root, request.rel, request.kind, request.before, recheck);
  // Read only when a fresh finding has to be checked against it (most writes have none).
  let baseline: Set<string> | null = recheck ? new Set<string>() : null;
  const accepted = (): Set<string> => (baseline ??= readBaseline(request.root));
  const blocks: ViolationBlock[] = [];
  const checkerIds = [...new Set(docs.flatMap((doc) => doc.checkers))];
  for (const id of checkerIds) {
    const declaring = docs.filter((doc) => doc.checkers.includes(id));
    const applicable = declaring.filter((doc) => appliesToAgent(doc, request.agent));
    if (applicable.length === 0) continue;
    const scoped = afterFiles.filter((file) => applicable.some((doc) => inScope(doc, file.rel)));
    if (scoped.length === 0) continue;
    // Uncapped on both sides: a cap would hide the one new finding of a file with old debt.
    const options: CheckOptions = {
      uncapped: true,
      maxFileLines: limit(declaring, (d) => d.maxFileLines, 500),
      maxFunctionLines: limit(declaring, (d) => d.maxFunctionLines, 60),
    };
    const checker = CHECKERS[id];
    const known = new Set(run(checker, beforeFiles, options).map(dedupeKey));
    const rule = (declaring[0] as GovernanceDoc).name;
    const seen = new Set<string>();
    const fresh: Finding[] = [];
    for (const finding of run(checker, scoped, options)) {
      const key = dedupeKey(finding);
      if (finding.severity !== "HIGH" || known.has(key) || seen.has(key)) continue;
      if (accepted().has(findingKey(rule, finding, request.rel))) continue;
      seen.add(key);
      fresh.push(finding);
    }
    if (fresh.length === 0) continue;
    const owner = applicable.find((doc) => doc.authority === "binding") ?? (applicable[0] as GovernanceDoc);
    blocks.push({ checker: id, owner, kind: request.kind, findings: fresh, keys: fresh.map(diffKey) });
  }
  return blocks;
}
