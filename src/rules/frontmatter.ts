/**
 * Spec 6.5 frontmatter: a leading `---` block of flat `key: value` lines. No nesting, no multi-line
 * YAML; list values are `[a, b, "c"]` or `a, b`.
 */
export type Frontmatter = {
  /** Raw values by key (last one wins), surrounding quotes stripped. */
  data: Record<string, string>;
  /** Text after the closing `---` (the whole text when there is no frontmatter). */
  body: string;
  /** Problems that make the block unusable or silently lossy; empty when fine. */
  problems: string[];
};

function unquote(value: string): string {
  const first = value[0];
  if (value.length >= 2 && (first === '"' || first === "'") && value[value.length - 1] === first) return value.slice(1, -1);
  return value;
}

export function parseFrontmatter(text: string): Frontmatter {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  // No prototype: a key such as `constructor` or `__proto__` is just a key.
  const data: Record<string, string> = Object.create(null) as Record<string, string>;
  const opening = /^---[ \t]*\r?\n/.exec(source);
  if (!opening) return { data, body: source, problems: [] };
  const problems: string[] = [];
  let emptyKey: string | null = null;
  // Walk line by line up to the closing `---` only: rule bodies can be long and are read lazily.
  for (let start = opening[0].length; start < source.length; ) {
    const newline = source.indexOf("\n", start);
    const end = newline < 0 ? source.length : newline;
    const raw = source.slice(start, end).replace(/\r$/, "");
    const next = newline < 0 ? source.length : newline + 1;
    if (/^---[ \t]*$/.test(raw)) return { data, body: source.slice(next), problems };
    start = next;
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    if (/^-\s/.test(line) && emptyKey !== null) {
      problems.push(`\`${emptyKey}:\` uses a multi-line YAML list; write \`${emptyKey}: [a, b]\` on one line`);
      emptyKey = null;
      continue;
    }
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const key = line.slice(0, colon).trim();
    const value = unquote(line.slice(colon + 1).trim());
    data[key] = value;
    emptyKey = value === "" ? key : null;
  }
  return { data: Object.create(null) as Record<string, string>, body: source, problems: ["frontmatter opened with `---` but never closed"] };
}

/** `[a, b, "c"]` or `a, b` ⇒ trimmed, unquoted items; `[]` or empty ⇒ none. */
export function parseList(value: string | undefined): string[] {
  if (value === undefined) return [];
  let inner = value.trim();
  if (inner.startsWith("[") && inner.endsWith("]")) inner = inner.slice(1, -1);
  // A plain loop: every rule's lists are parsed on every (cold) hook call.
  const items: string[] = [];
  for (const raw of inner.split(",")) {
    const item = unquote(raw.trim()).trim();
    if (item.length > 0) items.push(item);
  }
  return items;
}

/** Spec 6.6 filter 5: `1`, `true`, `yes`, `on` (any case). */
export function isTruthy(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes|on)$/i.test(value.trim());
}
