import { basename } from "node:path";
import type { Finding } from "./checkers/types.ts";
import type { RuleConstraints } from "./constraints.ts";
import type { ViolationBlock } from "./enforce.ts";

/** Spec 6.8 injection text and 6.11 rule order. */

export type VocabularyBlock = { path: string } & RuleConstraints;

export type Injection = { text: string; rules: string[] };

const MAX_FINDINGS = 5;

function findingLine(finding: Finding, editedRel: string): string {
  const where = finding.file && finding.file !== editedRel ? ` — ${finding.file}` : "";
  return `- ${finding.severity} ${finding.summary}${where}`;
}

function vocabularyLines(block: VocabularyBlock): string[] {
  return [...block.constraints.map((c) => `- ${c}`), ...block.forbidden.map((f) => `- (forbidden) ${f}`)];
}

/**
 * Vocabulary rules in brief order (a rule that is also violation-backed shows its findings first,
 * once), then violation-only rules. `ownerConstraints` gives each owner's constraint list.
 */
export function formatInjection(
  file: string,
  editedRel: string,
  vocabulary: readonly VocabularyBlock[],
  violations: readonly ViolationBlock[],
  ownerConstraints: (path: string) => string[],
  header: (name: string) => string = (name) => `[AIOSON context:guard] Project rules apply to ${name}:`,
): Injection | null {
  const lines: string[] = [];
  const rules: string[] = [];
  const shown = new Set<string>();
  const name = file ? basename(file.replaceAll("\\", "/")) : "";
  const renderViolation = (block: ViolationBlock, vocab: VocabularyBlock | undefined) => {
    const owner = block.owner.rel;
    lines.push(`Rule ${owner} — ${block.checker} found a new violation in ${name || "this change"}:`);
    for (const finding of block.findings.slice(0, MAX_FINDINGS)) lines.push(findingLine(finding, editedRel));
    if (block.findings.length > MAX_FINDINGS) lines.push(`- … and ${block.findings.length - MAX_FINDINGS} more`);
    if (shown.has(owner)) return;
    shown.add(owner);
    rules.push(owner);
    if (vocab) lines.push(...vocabularyLines(vocab));
    else lines.push(...ownerConstraints(owner).slice(0, 2).map((c) => `- ${c}`));
  };
  for (const block of vocabulary) {
    const backed = violations.filter((v) => v.owner.rel === block.path);
    if (backed.length > 0) {
      for (const violation of backed) renderViolation(violation, block);
      continue;
    }
    if (block.constraints.length === 0 && block.forbidden.length === 0) continue;
    lines.push(`Rule ${block.path}:`, ...vocabularyLines(block));
    rules.push(block.path);
    shown.add(block.path);
  }
  const vocabularyPaths = new Set(vocabulary.map((b) => b.path));
  for (const block of violations) if (!vocabularyPaths.has(block.owner.rel)) renderViolation(block, undefined);
  if (rules.length === 0) return null;
  return { text: [header(name || "this change"), ...lines].join("\n"), rules };
}

/**
 * The reason of a `guard_deny` rule's deny: the same violation blocks (findings, then the rule's first two
 * constraints) under a header that says the write did not happen and what to do instead.
 */
export function formatDenial(file: string, editedRel: string, violations: readonly ViolationBlock[], ownerConstraints: (path: string) => string[]): Injection | null {
  return formatInjection(file, editedRel, [], violations, ownerConstraints, (name) =>
    `[AIOSON context:guard] The write to ${name} was denied: it adds a violation of a project rule that does not accept one. Rewrite the change so the rule holds, then write it again.`,
  );
}
