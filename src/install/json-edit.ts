/**
 * Minimal-edit JSON rewriting: the new document keeps every byte of the old one that did not change
 * (indentation, spacing, key order, line endings), so install followed by uninstall gives back the
 * user's exact bytes. Only containers that changed are re-spliced; new values are rendered in the
 * file's own indentation style. Any doubt falls back to a plain re-serialisation, verified by parsing.
 */
import { isPlainObject, jsonEqual } from "./merge.ts";

type Span = { start: number; end: number };
type Member = { key: string; start: number; keyEnd: number; valueNode: JsonNode };
type JsonNode =
  | (Span & { kind: "object"; members: Member[] })
  | (Span & { kind: "array"; items: JsonNode[] })
  | (Span & { kind: "scalar" });

/** `eol` empty = a compact document (no line breaks; members separated by `comma`). */
export type JsonStyle = { indent: string; eol: string; colon: string; comma: string };

/** A position-tracking parser for text that `JSON.parse` already accepted. */
function parseNode(text: string, at: number): JsonNode {
  let i = at;
  const skip = () => {
    while (i < text.length && " \t\r\n".includes(text[i] as string)) i++;
  };
  const parseString = (): string => {
    const start = i;
    i++;
    while (text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (): JsonNode => {
    skip();
    const start = i;
    const c = text[i];
    if (c === "{") {
      i++;
      const members: Member[] = [];
      skip();
      if (text[i] === "}") {
        i++;
        return { kind: "object", start, end: i, members };
      }
      for (;;) {
        skip();
        const memberStart = i;
        const key = parseString();
        const keyEnd = i;
        skip();
        i++; // colon
        const valueNode = value();
        members.push({ key, start: memberStart, keyEnd, valueNode });
        skip();
        if (text[i] === ",") {
          i++;
          continue;
        }
        i++; // closing brace
        return { kind: "object", start, end: i, members };
      }
    }
    if (c === "[") {
      i++;
      const items: JsonNode[] = [];
      skip();
      if (text[i] === "]") {
        i++;
        return { kind: "array", start, end: i, items };
      }
      for (;;) {
        items.push(value());
        skip();
        if (text[i] === ",") {
          i++;
          continue;
        }
        i++;
        return { kind: "array", start, end: i, items };
      }
    }
    if (c === '"') {
      parseString();
      return { kind: "scalar", start, end: i };
    }
    while (i < text.length && !",]} \t\r\n".includes(text[i] as string)) i++;
    return { kind: "scalar", start, end: i };
  };
  return value();
}

/**
 * The style of an existing document, read from its root container: the whitespace before the root's first member
 * gives the indentation unit and line ending, its `key: value` separator the colon. A root whose first member is on
 * the same line is a compact document, and new content is written compact too. (Guessing the unit from the first
 * indented line anywhere made a compact file that already held indented content use a deep indent as its unit, so
 * each reinstall re-indented everything it added deeper: the file grew about fourfold per install.)
 */
export function detectStyle(text: string, root: JsonNode): JsonStyle {
  const fallback: JsonStyle = { indent: "  ", eol: text.includes("\r\n") ? "\r\n" : "\n", colon: ": ", comma: "," };
  const spans = root.kind === "object" ? root.members.map((m) => ({ start: m.start, end: m.valueNode.end })) : root.kind === "array" ? root.items : [];
  const [first, second] = spans;
  if (first === undefined) return fallback;
  const member = root.kind === "object" ? root.members[0] : undefined;
  const colonText = member ? text.slice(member.keyEnd, member.valueNode.start) : ": ";
  const colon = /^[ \t]*:[ \t]*$/.test(colonText) ? colonText : ": ";
  const lead = text.slice(root.start + 1, first.start);
  const newline = lead.lastIndexOf("\n");
  if (newline >= 0) return { indent: lead.slice(newline + 1), eol: lead.includes("\r\n") ? "\r\n" : "\n", colon, comma: "," };
  const between = second ? text.slice(first.end, second.start) : ",";
  return { indent: "", eol: "", colon, comma: /^[ \t]*,[ \t]*$/.test(between) ? between : "," };
}

/** A compact style with the same separators, for new content going into a container written on one line. */
function compact(style: JsonStyle): JsonStyle {
  return style.eol === "" ? style : { indent: "", eol: "", colon: style.colon, comma: "," };
}

/** Container items or members, one per line at `depth + 1` (indented style) or separated by the comma (compact). */
function joinPieces(open: string, close: string, pieces: readonly string[], depth: number, style: JsonStyle): string {
  if (pieces.length === 0) return `${open}${close}`;
  if (style.eol === "") return `${open}${pieces.join(style.comma)}${close}`;
  const pad = (n: number) => style.indent.repeat(n);
  return `${open}${style.eol}${pieces.map((piece) => pad(depth + 1) + piece).join(`,${style.eol}`)}${style.eol}${pad(depth)}${close}`;
}

/** `JSON.stringify` in the document's style, starting at nesting `depth`. */
function render(value: unknown, depth: number, style: JsonStyle): string {
  if (Array.isArray(value)) return joinPieces("[", "]", value.map((item) => render(item, depth + 1, style)), depth, style);
  if (isPlainObject(value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return joinPieces("{", "}", entries.map(([key, v]) => `${JSON.stringify(key)}${style.colon}${render(v, depth + 1, style)}`), depth, style);
  }
  return JSON.stringify(value);
}

/** Each new item's source: the old item it keeps (as it is, or edited in place), or null for a new one. */
type Alignment = (number | null)[];

/** Past this many item comparisons an array is aligned greedily (a hostile 8 MiB config must not cost minutes). */
const MAX_ALIGN_CELLS = 250_000;

/** Items that can be rewritten one into the other in place (two objects or two arrays). */
function editable(before: unknown, after: unknown): boolean {
  return (isPlainObject(before) && isPlainObject(after)) || (Array.isArray(before) && Array.isArray(after));
}

/**
 * Old items matched to new ones: the longest run of equal items stays where it is, and between two such anchors the
 * items that changed are paired in order and edited in place (an installer replaces its group at its position), the
 * old leftovers dropped and the new ones inserted there.
 */
function alignArray(oldItems: readonly unknown[], newItems: readonly unknown[]): Alignment {
  const n = oldItems.length;
  const m = newItems.length;
  if (n * m > MAX_ALIGN_CELLS) return greedyAlignment(oldItems, newItems);
  // lcs[i][j] = length of the longest common run of oldItems[i..] and newItems[j..].
  const lcs = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = jsonEqual(oldItems[i], newItems[j]) ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const alignment: Alignment = [];
  let i = 0;
  let j = 0;
  const gap = (oldEnd: number, newEnd: number) => {
    for (; j < newEnd; j++) {
      if (i < oldEnd && editable(oldItems[i], newItems[j])) alignment.push(i++);
      else alignment.push(null);
    }
    i = oldEnd;
  };
  while (i < n && j < m) {
    if (jsonEqual(oldItems[i], newItems[j]) && lcs[i]![j] === lcs[i + 1]![j + 1]! + 1) {
      alignment.push(i++);
      j++;
      continue;
    }
    // Find the next anchor, then fill the gap before it.
    let oi = i;
    let nj = j;
    while (oi < n && nj < m && !(jsonEqual(oldItems[oi], newItems[nj]) && lcs[oi]![nj] === lcs[oi + 1]![nj + 1]! + 1)) {
      if (lcs[oi + 1]![nj]! >= lcs[oi]![nj + 1]!) oi++;
      else nj++;
    }
    gap(oi, nj);
  }
  gap(n, m);
  return alignment;
}

/** The old greedy pairing (kept in order, equal or a shrunk copy), for arrays too large for alignArray. */
function greedyAlignment(oldItems: readonly unknown[], newItems: readonly unknown[]): Alignment {
  const alignment: Alignment = [];
  let j = 0;
  for (let i = 0; i < oldItems.length && j < newItems.length; i++) {
    const before = oldItems[i];
    const after = newItems[j];
    if (jsonEqual(before, after) || (isPlainObject(before) && isPlainObject(after) && isEditOf(before, after))) {
      alignment.push(i);
      j++;
    }
  }
  for (; j < newItems.length; j++) alignment.push(null);
  return alignment;
}

/** True when `after` is `before` with some values shrunk (a group that lost handlers), same keys. */
function isEditOf(before: Record<string, unknown>, after: Record<string, unknown>): boolean {
  const keys = Object.keys(after);
  if (keys.length !== Object.keys(before).length || !keys.every((key) => Object.hasOwn(before, key))) return false;
  return keys.every((key) => {
    const b = before[key];
    const a = after[key];
    return jsonEqual(a, b) || (Array.isArray(a) && Array.isArray(b) && a.length < b.length);
  });
}

/** One item or member of a rebuilt container: the old one at `index` (its text possibly edited), or a new one. */
type Piece = { index: number | null; text: string };

/**
 * Rebuilds a container from its pieces in order: between two old items the original separator that followed the
 * first, anywhere else a separator in the file's style; the original text before the first and after the last item.
 */
function splice(
  text: string,
  node: JsonNode & { kind: "object" | "array" },
  starts: readonly number[],
  ends: readonly number[],
  pieces: readonly Piece[],
  depth: number,
  style: JsonStyle,
): string {
  const open = node.kind === "object" ? "{" : "[";
  const close = node.kind === "object" ? "}" : "]";
  if (starts.length === 0 || pieces.length === 0) return joinPieces(open, close, pieces.map((piece) => piece.text), depth, style);
  const pad = (n: number) => style.indent.repeat(n);
  const lead = text.slice(node.start + 1, starts[0]);
  const trail = text.slice(ends[ends.length - 1], node.end - 1);
  const firstSeparator = starts.length > 1 ? text.slice(ends[0], starts[1]) : `,${lead}`;
  const styled = firstSeparator.includes("\n") && style.eol !== "" ? `,${style.eol}${pad(depth + 1)}` : firstSeparator;
  let out = open + lead;
  pieces.forEach((piece, k) => {
    const previous = pieces[k - 1];
    if (previous) {
      const original = previous.index !== null && piece.index !== null && previous.index < starts.length - 1;
      out += original ? text.slice(ends[previous.index as number], starts[(previous.index as number) + 1]) : styled;
    }
    out += piece.text;
  });
  return out + trail + close;
}

/** A non-empty container written on one line: what is added to it is written on that line too. */
function styleInside(text: string, node: JsonNode & { kind: "object" | "array" }, style: JsonStyle): JsonStyle {
  const empty = node.kind === "object" ? node.members.length === 0 : node.items.length === 0;
  return !empty && !text.slice(node.start, node.end).includes("\n") ? compact(style) : style;
}

function rewrite(text: string, node: JsonNode, before: unknown, after: unknown, depth: number, docStyle: JsonStyle): string {
  if (jsonEqual(before, after)) return text.slice(node.start, node.end);
  if (node.kind === "object" && isPlainObject(before) && isPlainObject(after)) {
    const style = styleInside(text, node, docStyle);
    const oldKeys = node.members.map((member) => member.key);
    if (new Set(oldKeys).size !== oldKeys.length) return render(after, depth, style);
    // Existing members keep their place whatever order `after` has them in (key order means nothing to a harness,
    // and re-rendering would rewrite the user's bytes).
    const newKeys = Object.keys(after);
    const kept = node.members.flatMap((member, index) => {
      if (!Object.hasOwn(after, member.key)) return [];
      const head = text.slice(member.start, member.valueNode.start);
      return [{ index, text: head + rewrite(text, member.valueNode, before[member.key], after[member.key], depth + 1, style) }];
    });
    // New keys go after the existing ones, in their own order (an event the strip dropped and the install adds
    // again lands at the end).
    const added = newKeys.filter((key) => !oldKeys.includes(key));
    const appended = added.map((key) => ({ index: null, text: `${JSON.stringify(key)}${style.colon}${render(after[key], depth + 1, style)}` }));
    const starts = node.members.map((member) => member.start);
    const ends = node.members.map((member) => member.valueNode.end);
    return splice(text, node, starts, ends, [...kept, ...appended], depth, style);
  }
  if (node.kind === "array" && Array.isArray(before) && Array.isArray(after)) {
    const style = styleInside(text, node, docStyle);
    const pieces = alignArray(before, after).map((i, j): Piece =>
      i === null ? { index: null, text: render(after[j], depth + 1, style) } : { index: i, text: rewrite(text, node.items[i] as JsonNode, before[i], after[j], depth + 1, style) },
    );
    const starts = node.items.map((item) => item.start);
    const ends = node.items.map((item) => item.end);
    return splice(text, node, starts, ends, pieces, depth, style);
  }
  return render(after, depth, docStyle);
}

/**
 * The text of `after`, written as a minimal edit of `oldText` (whose parsed value is `before`).
 * With no old text, plain `JSON.stringify(after, null, 2)` plus a newline (spec 9.9).
 */
export function editJsonText(oldText: string | null, before: unknown, after: unknown): string {
  if (oldText === null || oldText.trim() === "") return `${JSON.stringify(after, null, 2)}\n`;
  // A byte-order mark (Windows editors) stays where it was.
  if (oldText.startsWith("\uFEFF")) return `\uFEFF${editJsonText(oldText.slice(1), before, after)}`;
  const root = parseNode(oldText, 0);
  const style = detectStyle(oldText, root);
  const edited = oldText.slice(0, root.start) + rewrite(oldText, root, before, after, 0, style) + oldText.slice(root.end);
  try {
    if (jsonEqual(JSON.parse(edited), after)) return edited;
  } catch {
    // fall through to the safe rendering
  }
  return oldText.slice(0, root.start) + render(after, 0, style) + (oldText.slice(root.end) || style.eol);
}
