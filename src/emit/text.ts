/** Caps on stored strings: a cut is always visible, never silent. */
export const CUT_MARK = "…[truncated]";

/** At most `max` characters in all; a longer text keeps its head and ends with the cut mark. */
export function capHead(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, Math.max(0, max - CUT_MARK.length))}${CUT_MARK}` : text;
}

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
