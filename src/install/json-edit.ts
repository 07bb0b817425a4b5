/**
 * Minimal-edit JSON rewriting: the new document keeps every byte of the old one that did not change
 * (indentation, spacing, key order, line endings), so install followed by uninstall gives back the
 * user's exact bytes. Only containers that changed are re-spliced; new values are rendered in the
 * file's own indentation style. Any doubt falls back to a plain re-serialisation, verified by parsing.
 */
import { isPlainObject, jsonEqual } from "./merge.ts";

type Span = { start: number; end: number };
type Member = { key: string; start: number; valueNode: JsonNode };
type JsonNode =
  | (Span & { kind: "object"; members: Member[] })
  | (Span & { kind: "array"; items: JsonNode[] })
  | (Span & { kind: "scalar" });

export type JsonStyle = { indent: string; eol: string; colon: string };

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
        skip();
        i++; // colon
        const valueNode = value();
        members.push({ key, start: memberStart, valueNode });
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

/** Indentation unit (first indented line), line ending and `key: value` separator of an existing document. */
export function detectStyle(text: string): JsonStyle {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const indentMatch = /\n([ \t]+)\S/.exec(text);
  const indent = indentMatch ? (indentMatch[1]?.startsWith("\t") ? "\t" : (indentMatch[1] as string)) : "  ";
  const colonMatch = /"\s*(:\s*)/.exec(text);
  const colon = colonMatch && !colonMatch[1]?.includes("\n") ? (colonMatch[1] as string) : ": ";
  return { indent, eol, colon };
}

/** `JSON.stringify` in the document's style, starting at nesting `depth`. */
function render(value: unknown, depth: number, style: JsonStyle): string {
  const pad = (n: number) => style.indent.repeat(n);
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const items = value.map((item) => pad(depth + 1) + render(item, depth + 1, style));
    return `[${style.eol}${items.join(`,${style.eol}`)}${style.eol}${pad(depth)}]`;
  }
  if (isPlainObject(value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return "{}";
    const members = entries.map(([key, v]) => `${pad(depth + 1)}${JSON.stringify(key)}${style.colon}${render(v, depth + 1, style)}`);
    return `{${style.eol}${members.join(`,${style.eol}`)}${style.eol}${pad(depth)}}`;
  }
  return JSON.stringify(value);
}

/** Old items matched to new ones in order: kept as-is, kept and edited, or dropped; leftovers are appended. */
function alignArray(oldItems: readonly unknown[], newItems: readonly unknown[]): { pairs: [number, number][]; appendedFrom: number } {
  const pairs: [number, number][] = [];
  let j = 0;
  for (let i = 0; i < oldItems.length && j < newItems.length; i++) {
    const before = oldItems[i];
    const after = newItems[j];
    if (jsonEqual(before, after) || (isPlainObject(before) && isPlainObject(after) && isEditOf(before, after))) {
      pairs.push([i, j]);
      j++;
    }
  }
  return { pairs, appendedFrom: j };
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

/** Rebuilds a container from kept pieces, reusing the original separators and appending new pieces in style. */
function splice(
  text: string,
  node: JsonNode & { kind: "object" | "array" },
  starts: readonly number[],
  ends: readonly number[],
  kept: readonly { index: number; text: string }[],
  appended: readonly string[],
  depth: number,
  style: JsonStyle,
): string {
  const open = node.kind === "object" ? "{" : "[";
  const close = node.kind === "object" ? "}" : "]";
  if (kept.length + appended.length === 0) return `${open}${close}`;
  const pad = (n: number) => style.indent.repeat(n);
  if (starts.length === 0) {
    return `${open}${style.eol}${appended.map((piece) => pad(depth + 1) + piece).join(`,${style.eol}`)}${style.eol}${pad(depth)}${close}`;
  }
  const lead = text.slice(node.start + 1, starts[0]);
  const trail = text.slice(ends[ends.length - 1], node.end - 1);
  let out = open + lead;
  kept.forEach((piece, k) => {
    out += piece.text;
    const next = kept[k + 1];
    if (next) out += text.slice(ends[piece.index], starts[piece.index + 1]);
  });
  const firstSeparator = starts.length > 1 ? text.slice(ends[0], starts[1]) : `,${lead}`;
  for (const [k, piece] of appended.entries()) {
    if (kept.length > 0 || k > 0) out += firstSeparator.includes("\n") ? `,${style.eol}${pad(depth + 1)}` : firstSeparator;
    out += piece;
  }
  return out + trail + close;
}

function rewrite(text: string, node: JsonNode, before: unknown, after: unknown, depth: number, style: JsonStyle): string {
  if (jsonEqual(before, after)) return text.slice(node.start, node.end);
  if (node.kind === "object" && isPlainObject(before) && isPlainObject(after)) {
    const oldKeys = node.members.map((member) => member.key);
    if (new Set(oldKeys).size !== oldKeys.length) return render(after, depth, style);
    const newKeys = Object.keys(after);
    const common = newKeys.filter((key) => oldKeys.includes(key));
    const oldOrder = oldKeys.filter((key) => common.includes(key));
    if (common.some((key, k) => oldOrder[k] !== key)) return render(after, depth, style);
    if (newKeys.slice(0, common.length).some((key, k) => key !== common[k])) return render(after, depth, style);
    const kept = node.members.flatMap((member, index) => {
      if (!Object.hasOwn(after, member.key)) return [];
      const head = text.slice(member.start, member.valueNode.start);
      return [{ index, text: head + rewrite(text, member.valueNode, before[member.key], after[member.key], depth + 1, style) }];
    });
    const appended = newKeys.slice(common.length).map((key) => `${JSON.stringify(key)}${style.colon}${render(after[key], depth + 1, style)}`);
    const starts = node.members.map((member) => member.start);
    const ends = node.members.map((member) => member.valueNode.end);
    return splice(text, node, starts, ends, kept, appended, depth, style);
  }
  if (node.kind === "array" && Array.isArray(before) && Array.isArray(after)) {
    const alignment = alignArray(before, after);
    const kept = alignment.pairs.map(([i, j]) => ({
      index: i,
      text: rewrite(text, node.items[i] as JsonNode, before[i], after[j], depth + 1, style),
    }));
    const appended = after.slice(alignment.appendedFrom).map((item) => render(item, depth + 1, style));
    const starts = node.items.map((item) => item.start);
    const ends = node.items.map((item) => item.end);
    return splice(text, node, starts, ends, kept, appended, depth, style);
  }
  return render(after, depth, style);
}

/**
 * The text of `after`, written as a minimal edit of `oldText` (whose parsed value is `before`).
 * With no old text, plain `JSON.stringify(after, null, 2)` plus a newline (spec 9.9).
 */
export function editJsonText(oldText: string | null, before: unknown, after: unknown): string {
  if (oldText === null || oldText.trim() === "") return `${JSON.stringify(after, null, 2)}\n`;
  // A byte-order mark (Windows editors) stays where it was.
  if (oldText.startsWith("\uFEFF")) return `\uFEFF${editJsonText(oldText.slice(1), before, after)}`;
  const style = detectStyle(oldText);
  const root = parseNode(oldText, 0);
  const edited = oldText.slice(0, root.start) + rewrite(oldText, root, before, after, 0, style) + oldText.slice(root.end);
  try {
    if (jsonEqual(JSON.parse(edited), after)) return edited;
  } catch {
    // fall through to the safe rendering
  }
  return oldText.slice(0, root.start) + render(after, 0, style) + (oldText.slice(root.end) || style.eol);
}
