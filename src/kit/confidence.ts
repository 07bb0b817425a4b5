/**
 * context-confidence-check: in a confidence table (`| Axis | Confidence | Justification | Tools used |`), every
 * medium (🟡) or low (🔴) row needs a non-empty "Tools used" cell whose tools were really called in the
 * transcript. High (🟢) rows need nothing. No table: nothing to check.
 */
import { Sanitizer, withheldLine } from "../text/sanitize.ts";

export type TableRow = { axis: string; confidence: string; tools: string[] };
export type RowFault = { axis: string; problem: string };

const HEADER = /^\s*\|?\s*axis\s*\|\s*confidence\s*\|\s*justification\s*\|\s*tools?(?:\s+used)?\s*\|?\s*$/i;
const SEPARATOR = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;
const NEEDS_EVIDENCE = /🟡|🔴|🟠|\b(medium|med|low|m[ée]dio|m[ée]dia|baixo|baixa|bajo|baja|moderate)\b/i;
const EMPTY_TOOLS = /^(?:|-+|—|–|n\/?a|none|nenhum[a]?|ninguna?|\.{3}|…)$/i;

function cells(line: string): string[] {
  const trimmed = line.trim().replace(/^\|/, "").replace(/\|$/, "");
  return trimmed.split("|").map((cell) => cell.trim());
}

/** Tool names of a cell: `Read, Grep` / `read_file + grep_search` / `` `Bash` (git log) `` → names. */
export function toolsOfCell(cell: string): string[] {
  const clean = cell.replace(/\([^)]*\)/g, " ").replace(/[`*]/g, "").trim();
  if (EMPTY_TOOLS.test(clean)) return [];
  return clean
    .split(/\s*(?:,|;|\+|\/|&|\band\b|\be\b|\by\b)\s*/i)
    .map((name) => name.trim().split(/\s+/)[0] ?? "")
    .filter((name) => name && !EMPTY_TOOLS.test(name));
}

/** Every row of every confidence table in the text. */
export function confidenceRows(text: string): TableRow[] {
  const rows: TableRow[] = [];
  const lines = text.split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    if (!HEADER.test(lines[index] as string)) continue;
    let at = index + 1;
    if (at < lines.length && SEPARATOR.test(lines[at] as string)) at++;
    for (; at < lines.length; at++) {
      const line = lines[at] as string;
      if (!line.trim().startsWith("|") && !line.includes("|")) break;
      const [axis = "", confidence = "", , tools = ""] = cells(line);
      if (!axis && !confidence) continue;
      rows.push({ axis, confidence, tools: toolsOfCell(tools) });
    }
    index = at - 1;
  }
  return rows;
}

function known(tool: string, called: ReadonlySet<string>): boolean {
  const name = tool.toLowerCase();
  if (called.has(name)) return true;
  // `mcp__server__tool` may be cited by its short name.
  for (const seen of called) if (seen.endsWith(`__${name}`) || seen.endsWith(`_${name}`)) return true;
  return false;
}

/** The medium/low rows without tool evidence; `called` = lower-cased tool names seen in the transcript. */
export function confidenceFaults(rows: readonly TableRow[], called: ReadonlySet<string>): RowFault[] {
  const faults: RowFault[] = [];
  for (const row of rows) {
    if (!NEEDS_EVIDENCE.test(row.confidence)) continue;
    if (row.tools.length === 0) {
      faults.push({ axis: row.axis, problem: "no tools listed" });
      continue;
    }
    const missing = row.tools.filter((tool) => !known(tool, called));
    if (missing.length > 0) faults.push({ axis: row.axis, problem: `not called in this session: ${missing.join(", ")}` });
  }
  return faults;
}

/** The block reason; axes and tool names are the model's own words going back to it, so each row is sanitised. */
export function confidenceReason(faults: readonly RowFault[]): string {
  const clean = new Sanitizer();
  const rows: string[] = [];
  for (const fault of faults) {
    const axis = clean.item(fault.axis) ?? "";
    const problem = clean.item(fault.problem);
    if (problem !== null) rows.push(`"${axis}" (${problem})`);
  }
  const withheld = clean.withheld > 0 ? ` ${withheldLine(clean.withheld, "table cell(s)")}` : "";
  return `Confidence table: medium/low rows need tool evidence — ${rows.join("; ")}.${withheld} Investigate with tools and list the ones you really used, or raise the evidence before finishing.`;
}
