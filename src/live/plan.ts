/** Plan steps of a `live:start --plan=<file>` (spec 16) and the step-id comparison of spec 13. */

export type PlanStep = { id: string; title: string; done: boolean };

/** Step ids compare case-insensitively with whitespace collapsed. */
export function stepKey(id: string): string {
  return id.trim().replace(/\s+/g, " ").toLowerCase();
}

const STEPS_BLOCK = /<!--\s*aioson:steps\b([\s\S]*?)-->/gi;
const BLOCK_LINE = /^\s*(?:[-*+]\s+)?([A-Za-z0-9][\w.-]*)\s*:\s*(.+?)\s*$/;
const HEADING = /^#{3,6}\s+([A-Za-z]+-\d+(?:\.\d+)?|fase\s+\d+(?:\.\d+)?)\s*[-:–—]\s*(.+?)\s*#*\s*$/i;

/**
 * `<!-- aioson:steps … -->` blocks of `ID: title` lines, and `###`–`######` headings named `ABC-12[.3]`
 * or `Fase N[.M]` followed by `-`/`:` and a title; the first occurrence of an id wins.
 */
export function parsePlanSteps(markdown: string): PlanStep[] {
  const found: Array<{ id: string; title: string; at: number }> = [];
  for (const block of markdown.matchAll(STEPS_BLOCK)) {
    const start = block.index ?? 0;
    for (const line of (block[1] ?? "").split(/\r?\n/)) {
      const match = BLOCK_LINE.exec(line);
      if (match?.[1] && match[2]) found.push({ id: match[1], title: match[2], at: start });
    }
  }
  let offset = 0;
  for (const line of markdown.split("\n")) {
    const match = HEADING.exec(line.replace(/\r$/, ""));
    if (match?.[1] && match[2]) found.push({ id: match[1].replace(/\s+/g, " "), title: match[2], at: offset });
    offset += line.length + 1;
  }
  const seen = new Set<string>();
  const steps: PlanStep[] = [];
  for (const step of found.sort((a, b) => a.at - b.at)) {
    const key = stepKey(step.id);
    if (seen.has(key)) continue;
    seen.add(key);
    steps.push({ id: step.id, title: step.title, done: false });
  }
  return steps;
}

/** Marks the step named `id` done; null when no step matches. */
export function markStepDone(steps: readonly PlanStep[], id: string): PlanStep[] | null {
  const key = stepKey(id);
  if (!steps.some((step) => stepKey(step.id) === key)) return null;
  return steps.map((step) => (stepKey(step.id) === key ? { ...step, done: true } : step));
}
