import { basename } from "node:path";
import type { Finding } from "./checkers/types.ts";
import type { RuleConstraints } from "./constraints.ts";
import { Sanitizer, withheldLine } from "../text/sanitize.ts";
import type { ViolationBlock } from "./enforce.ts";

/**
 * Spec 6.8 injection text and 6.11 rule order. Everything project- or agent-made in it goes through the sanitiser:
 * the constraints (already sanitised by `ruleConstraints`), rule paths, the edited file's name and the findings'
 * summaries and files. Withheld items are counted in a closing line.
 */

export type VocabularyBlock = { path: string } & RuleConstraints;

export type Injection = { text: string; rules: string[] };

const MAX_FINDINGS = 5;

function findingLine(finding: Finding, editedRel: string, clean: Sanitizer): string | null {
  const summary = clean.item(finding.summary);
  if (summary === null) return null;
  const file = finding.file && finding.file !== editedRel ? clean.item(finding.file) : null;
  return `- ${finding.severity} ${summary}${file ? ` — ${file}` : ""}`;
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
  ownerConstraints: (path: string) => RuleConstraints,
  header: (name: string) => string = (name) => `[AIOSON context:guard] Project rules apply to ${name}:`,
): Injection | null {
  const lines: string[] = [];
  const rules: string[] = [];
  const shown = new Set<string>();
  const clean = new Sanitizer();
  let withheld = 0;
  const name = (file ? clean.item(basename(file.replaceAll("\\", "/"))) : null) ?? "this change";
  /** A rule whose path reads like an instruction to an AI is left out whole (and counted). */
  const pathOf = (path: string): string | null => clean.item(path);
  const renderViolation = (block: ViolationBlock, vocab: VocabularyBlock | undefined) => {
    const owner = block.owner.rel;
    const shownOwner = pathOf(owner);
    if (shownOwner === null) return;
    lines.push(`Rule ${shownOwner} — ${block.checker} found a new violation in ${name}:`);
    for (const finding of block.findings.slice(0, MAX_FINDINGS)) {
      const line = findingLine(finding, editedRel, clean);
      if (line !== null) lines.push(line);
    }
    if (block.findings.length > MAX_FINDINGS) lines.push(`- … and ${block.findings.length - MAX_FINDINGS} more`);
    if (shown.has(owner)) return;
    shown.add(owner);
    rules.push(owner);
    if (vocab) {
      lines.push(...vocabularyLines(vocab));
      withheld += vocab.withheld;
    } else {
      const own = ownerConstraints(owner);
      lines.push(...own.constraints.slice(0, 2).map((c) => `- ${c}`));
      withheld += own.withheld;
    }
  };
  for (const block of vocabulary) {
    const backed = violations.filter((v) => v.owner.rel === block.path);
    if (backed.length > 0) {
      for (const violation of backed) renderViolation(violation, block);
      continue;
    }
    if (block.constraints.length === 0 && block.forbidden.length === 0) continue;
    const path = pathOf(block.path);
    if (path === null) continue;
    lines.push(`Rule ${path}:`, ...vocabularyLines(block));
    rules.push(block.path);
    shown.add(block.path);
    withheld += block.withheld;
  }
  const vocabularyPaths = new Set(vocabulary.map((b) => b.path));
  for (const block of violations) if (!vocabularyPaths.has(block.owner.rel)) renderViolation(block, undefined);
  if (rules.length === 0) return null;
  withheld += clean.withheld;
  if (withheld > 0) lines.push(withheldLine(withheld));
  return { text: [header(name), ...lines].join("\n"), rules };
}

/**
 * The reason of a `guard_deny` rule's deny: the same violation blocks (findings, then the rule's first two
 * constraints) under a header that says the write did not happen and what to do instead.
 */
export function formatDenial(file: string, editedRel: string, violations: readonly ViolationBlock[], ownerConstraints: (path: string) => RuleConstraints): Injection | null {
  return formatInjection(file, editedRel, [], violations, ownerConstraints, (name) =>
    `[AIOSON context:guard] The write to ${name} was denied: it adds a violation of a project rule that does not accept one. Rewrite the change so the rule holds, then write it again.`,
  );
}
