/**
 * Which compaction markers bound the recap's span (spec 5.4 `B`). A harness that confirms its compactions after
 * the fact (Claude Code: `SessionStart(compact)`, `PostCompact`) writes markers that say so, because its
 * `PreCompact` can fire for a compaction that never happens ("compaction cannot help", "Reactive compact: …
 * bailing", real-harnesses §1). Such a marker counts once a confirmation row follows it; a later marker replaces
 * one still unconfirmed; the newest marker always counts (it is the compaction being rebuilt: the recap runs at
 * its `SessionStart(compact)`, before any `PostCompact`). A marker without the flag (other harnesses, rows written
 * before this rule) counts as soon as it is written, as spec 5.4 says.
 */

/** Payload key of a marker that waits for its confirmation. */
export const NEEDS_CONFIRMATION = "needs_confirmation";
/** The row that confirms the newest marker of its harness session. */
export const COMPACTION_CONFIRMED = "compaction_confirmed";

/** The serialized flag, searched in payload text (JSON.stringify writes no spaces). */
export const NEEDS_CONFIRMATION_MARK = `"${NEEDS_CONFIRMATION}":true`;

export type MarkerRow = { id: number; confirmation: boolean; flagged: boolean };

/** The markers that count, oldest first, from the marker and confirmation rows of one session in id order. */
export function countedMarkers(rows: readonly MarkerRow[]): number[] {
  const counted: number[] = [];
  let pending: number | null = null;
  for (const row of rows) {
    if (row.confirmation) {
      if (pending !== null) counted.push(pending);
      pending = null;
    } else if (row.flagged) {
      pending = row.id;
    } else {
      counted.push(row.id);
      pending = null;
    }
  }
  if (pending !== null) counted.push(pending);
  return counted;
}

/** B: the second-to-last marker that counts, else 0. */
export function boundaryOf(rows: readonly MarkerRow[]): number {
  return countedMarkers(rows).at(-2) ?? 0;
}

/** The newest marker, when it still waits for a confirmation (what a `SessionStart(compact)` recap confirms). */
export function unconfirmedNewest(rows: readonly MarkerRow[]): number | null {
  const last = rows.at(-1);
  return last && !last.confirmation && last.flagged ? last.id : null;
}
