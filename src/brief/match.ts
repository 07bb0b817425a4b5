/** Spec 6.5 normalization and keyword matching, shared by the brief and the guard. */

const NON_ASCII = /[^\x00-\x7f]/;

/** NFD, drop combining marks, lowercase, delete `` ` `` `*` `_`, runs outside [a-z0-9/-] ⇒ one space. */
const ALREADY_NORMAL = /^[a-z0-9/-]+(?: [a-z0-9/-]+)*$/;

export function norm(text: string): string {
  if (ALREADY_NORMAL.test(text)) return text;
  // ICU normalization is the costliest step of a cold guard call; ASCII text has nothing to decompose.
  const folded = NON_ASCII.test(text) ? text.normalize("NFD").replace(/[\u0300-\u036f]/g, "") : text;
  return folded
    .toLowerCase()
    .replace(/[`*_]/g, "")
    .replace(/[^a-z0-9/-]+/g, " ")
    .trim();
}

/** A word and its variants: `-ing` stems (len > 5) and singular of `-s` (len > 4). */
export function variants(word: string): string[] {
  const out = [word];
  if (word.endsWith("ing") && word.length > 5) {
    const stem = word.slice(0, -3);
    out.push(stem, `${stem}e`);
  }
  if (word.endsWith("s") && word.length > 4) out.push(word.slice(0, -1));
  return out;
}

export type Lookup = { text: string; words: Set<string> };

export function makeLookup(normalized: string): Lookup {
  const words = new Set<string>();
  // A guard query is a whole file: its words repeat, so each distinct word is expanded once.
  for (const word of new Set(normalized.split(" "))) if (word) for (const variant of variants(word)) words.add(variant);
  return { text: normalized, words };
}

/** Any of `variants(word)` in the lookup, without building the list (scoring runs cold on every hook call). */
function hasWord(lookup: Lookup, word: string): boolean {
  if (lookup.words.has(word)) return true;
  if (word.endsWith("ing") && word.length > 5) {
    const stem = word.slice(0, -3);
    if (lookup.words.has(stem) || lookup.words.has(`${stem}e`)) return true;
  }
  return word.endsWith("s") && word.length > 4 && lookup.words.has(word.slice(0, -1));
}

export function matchesNeedle(lookup: Lookup, needle: string): boolean {
  const n = norm(needle);
  if (!n) return false;
  if (!n.includes(" ") && n.length <= 3) return hasWord(lookup, n);
  if (lookup.text.includes(n)) return true;
  // Enough of its long words (all of one, two of more) appear as words.
  let long = 0;
  let hits = 0;
  for (const word of n.split(" ")) {
    if (word.length < 4) continue;
    long++;
    if (hasWord(lookup, word)) hits++;
  }
  return long > 0 && hits >= Math.min(2, long);
}

/** The needles that hit the lookup, in declaration order. */
export function matches(lookup: Lookup, needles: readonly string[]): string[] {
  const hits: string[] = [];
  for (const needle of needles) if (matchesNeedle(lookup, needle)) hits.push(needle);
  return hits;
}

function cleanPath(path: string): string {
  if (!path.includes("\\") && !path.startsWith("./")) return path;
  return path.replaceAll("\\", "/").replace(/^(\.\/)+/, "");
}

const globCache = new Map<string, RegExp>();

/** Syntax beyond spec 6.5's `*` and `**`: braces, `?`, classes, extglobs. */
const EXTENDED_GLOB = /[?[\]{}()!+@]/;

/**
 * Patterns with extended syntax (`src/**∕*.{ts,tsx}`) go to picomatch, loaded only then: its module
 * initialisation costs a guard call about 0.7 ms, too much for the common `*`/`**` patterns below.
 */
function extendedGlobRegex(pattern: string): RegExp {
  try {
    const picomatch = require("picomatch") as typeof import("picomatch");
    return picomatch.makeRe(pattern, { dot: true });
  } catch {
    // A pattern picomatch refuses matches nothing rather than failing the rule.
    return /(?!)/;
  }
}

/** `**∕` = zero or more directories, `**` = anything, `*` = anything but `/`; anchored. */
function globRegex(pattern: string): RegExp {
  const cached = globCache.get(pattern);
  if (cached) return cached;
  if (EXTENDED_GLOB.test(pattern)) {
    const regex = extendedGlobRegex(pattern);
    globCache.set(pattern, regex);
    return regex;
  }
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    if (ch === "*" && pattern[i + 1] === "*") {
      if (pattern[i + 2] === "/") {
        source += "(?:.*/)?";
        i += 2;
      } else {
        source += ".*";
        i += 1;
      }
    } else if (ch === "*") source += "[^/]*";
    else source += ch.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
  }
  const regex = new RegExp(`^${source}$`);
  globCache.set(pattern, regex);
  return regex;
}

/** Spec 6.5 `matchPath`. */
export function matchPath(file: string, pattern: string): boolean {
  const f = cleanPath(file);
  const p = cleanPath(pattern);
  if (!p) return false;
  if (p.endsWith("/**") && !p.slice(0, -3).includes("*")) {
    const prefix = p.slice(0, -3);
    return f === prefix || f.startsWith(`${prefix}/`);
  }
  if (!p.includes("*")) return f === p || f.startsWith(`${p}/`);
  return globRegex(p).test(f);
}
