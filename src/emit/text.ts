import { CUT_MARK } from "../core/labels.ts";

/** The caps shared with every stored label live with the label schema. */
export { CUT_MARK, capHead } from "../core/labels.ts";

/** At most `max` characters in all; a longer text keeps its tail (where errors and summaries are) after a leading mark. */
export function capTail(text: string, max: number): string {
  return text.length > max ? `[truncated]…${text.slice(text.length - Math.max(0, max - 12))}` : text;
}

/** Spec 4.10: the first `max` characters plus the cut mark. */
export function capWithMark(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}${CUT_MARK}` : text;
}

export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
