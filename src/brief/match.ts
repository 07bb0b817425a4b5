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

/*
 * Rule patterns come from the project, which may be hostile: a glob turned into a backtracking RegExp (ours or
 * picomatch's) takes exponential time on `src/****…*.zzz` and polynomial time on `*a*a*a…`. Globs are therefore
 * matched by simulating their automaton, in time proportional to path length × pattern steps, within these bounds.
 */

/** A longer pattern (after `\` → `/` and `./` removal) matches nothing; context:brief reports it (src/rules/schema.ts). */
export const MAX_PATTERN_CHARS = 256;
/** Brace alternatives one pattern may expand to, and the steps of all of them together; beyond either it matches nothing. */
const MAX_ALTERNATIVES = 32;
const MAX_STEPS = 256;
/**
 * Characters × steps one match may walk (the automaton's worst case: every state live at every character): a 40-step
 * pattern takes any path up to 6,553 characters, past PATH_MAX; a 256-step one up to 1,024. Beyond it, no match.
 */
const MAX_WORK = 1 << 18;
/** Compiled patterns kept; a long-lived process (the dashboard) reading many projects starts over past it. */
const MAX_CACHED = 1_024;
const SLASH = 0x2f;
/** Step kinds of a compiled glob (numbers: the matcher's inner loop switches on them). */
const CHAR = 0;
/** `?`: one character but `/`. */
const ONE = 1;
/** `[…]`: one character of the class, never `/`. */
const CLASS = 2;
/** `*`: any run without `/`. */
const STAR = 3;
/** `**`: any run. */
const ANY = 4;
/** Start of `**∕`, compiled as DIRS, ANY, DIRS_END: consumes nothing, goes on to the ANY or past the DIRS_END. */
const DIRS = 5;
/** The `/` that ends a `**∕`. */
const DIRS_END = 6;

/** Inclusive code ranges as pairs, or every character but them. */
type CharClass = { negated: boolean; ranges: number[] };

/**
 * One brace-free alternative: the literal text the path must start and end with, the literal runs it must hold in
 * order in between, and the steps for what lies between (`args` holds a CHAR's code or a CLASS's index in `classes`).
 */
type Glob = { head: string; tail: string; pieces: string[]; kinds: number[]; args: number[]; classes: CharClass[]; buffers: Buffers | null };

/**
 * The matcher's state sets, made at a pattern's first full run: `seen[s]` is the mark of the last character state
 * `s` was live at (marks only grow, so nothing is ever cleared).
 */
type Buffers = { seen: Int32Array; live: Int32Array; next: Int32Array; mark: number };

/** The first `{…}` group of `glob` with a top-level comma, from `from` on: its bounds and options; null when none. */
function braceGroup(glob: string, from: number): { start: number; end: number; options: string[] } | null {
  for (let start = glob.indexOf("{", from); start >= 0; start = glob.indexOf("{", start + 1)) {
    let depth = 0;
    let last = start + 1;
    const options: string[] = [];
    for (let i = start; i < glob.length; i++) {
      const ch = glob[i];
      if (ch === "{") depth++;
      else if (ch === "}" && --depth === 0) {
        // A group without a comma (`{a}`) is literal text, as in a shell.
        if (options.length === 0) break;
        options.push(glob.slice(last, i));
        return { start, end: i, options };
      } else if (ch === "," && depth === 1) {
        options.push(glob.slice(last, i));
        last = i + 1;
      }
    }
  }
  return null;
}

/** `a{b,c}d` ⇒ `abd`, `acd` into `out`; false once more than MAX_ALTERNATIVES. */
function expandBraces(glob: string, from: number, out: string[]): boolean {
  const group = braceGroup(glob, from);
  if (!group) {
    out.push(glob);
    return out.length <= MAX_ALTERNATIVES;
  }
  const head = glob.slice(0, group.start);
  const tail = glob.slice(group.end + 1);
  // The options are expanded where they now stand; the head has no group left.
  for (const option of group.options) if (!expandBraces(head + option + tail, group.start, out)) return false;
  return true;
}

/** `[…]` at `start`: the class and the index after `]`; null when unclosed (then `[` is literal). */
function classAt(glob: string, start: number): { found: CharClass; end: number } | null {
  let i = start + 1;
  const negated = glob[i] === "!" || glob[i] === "^";
  if (negated) i++;
  const ranges: number[] = [];
  // A `]` right after the opening is a member, not the end.
  for (let first = true; i < glob.length; first = false) {
    if (glob[i] === "]" && !first) return { found: { negated, ranges }, end: i + 1 };
    const low = glob.charCodeAt(i);
    if (glob[i + 1] === "-" && i + 2 < glob.length && glob[i + 2] !== "]") {
      ranges.push(low, glob.charCodeAt(i + 2));
      i += 3;
    } else {
      ranges.push(low, low);
      i += 1;
    }
  }
  return null;
}

/** One brace-free alternative compiled; a run of two or more `*` is `**`. */
function globOf(text: string): Glob {
  const kinds: number[] = [];
  const args: number[] = [];
  /** Where each step starts in `text` (a CHAR is one character there, so literal runs are sliced from it). */
  const at: number[] = [];
  const classes: CharClass[] = [];
  const push = (kind: number, arg: number, from: number): void => {
    kinds.push(kind);
    args.push(arg);
    at.push(from);
  };
  for (let i = 0; i < text.length; ) {
    const ch = text[i];
    const set = ch === "[" ? classAt(text, i) : null;
    if (ch === "*") {
      let end = i;
      while (text[end] === "*") end++;
      if (end - i > 1 && text[end] === "/") {
        push(DIRS, 0, i);
        push(ANY, 0, i);
        push(DIRS_END, 0, end);
        end++;
      } else push(end - i === 1 ? STAR : ANY, 0, i);
      i = end;
    } else if (ch === "?") {
      push(ONE, 0, i);
      i++;
    } else if (set) {
      push(CLASS, classes.push(set.found) - 1, i);
      i = set.end;
    } else {
      push(CHAR, text.charCodeAt(i), i);
      i++;
    }
  }
  // Literal text is compared directly (native string search): most paths a glob rejects fail there, before any
  // state is kept.
  const run = (from: number, to: number) => (from < to ? text.slice(at[from], (at[to - 1] as number) + 1) : "");
  let first = 0;
  while (first < kinds.length && kinds[first] === CHAR) first++;
  let last = kinds.length;
  while (last > first && kinds[last - 1] === CHAR) last--;
  const pieces: string[] = [];
  for (let s = first; s < last; ) {
    let end = s;
    while (kinds[end] === CHAR) end++;
    if (end > s) pieces.push(run(s, end));
    s = end + 1;
  }
  return { head: run(0, first), tail: run(last, kinds.length), pieces, kinds: kinds.slice(first, last), args: args.slice(first, last), classes, buffers: null };
}

/** The alternatives of a pattern, compiled; null when it is beyond the bounds (it then matches nothing). */
function compileGlob(pattern: string): Glob[] | null {
  if (pattern.length > MAX_PATTERN_CHARS) return null;
  const texts: string[] = [];
  if (!expandBraces(pattern, 0, texts)) return null;
  const globs = texts.map(globOf);
  let steps = 0;
  for (const glob of globs) steps += glob.kinds.length;
  return steps <= MAX_STEPS ? globs : null;
}

const globCache = new Map<string, Glob[] | null>();

function compiledGlob(pattern: string): Glob[] | null {
  const cached = globCache.get(pattern);
  if (cached !== undefined) return cached;
  if (globCache.size >= MAX_CACHED) globCache.clear();
  const compiled = compileGlob(pattern);
  globCache.set(pattern, compiled);
  return compiled;
}

function inClass(set: CharClass, code: number): boolean {
  let member = false;
  for (let i = 0; i < set.ranges.length && !member; i += 2) member = code >= (set.ranges[i] as number) && code <= (set.ranges[i + 1] as number);
  return member !== set.negated;
}

/**
 * Every live state at once over `path[from, to)`, never backtracking: O(characters × steps). A state is added with
 * the states it reaches without consuming (past `*`, `**`, and both ways of a DIRS).
 */
function runGlob(glob: Glob, path: string, from: number, to: number): boolean {
  const { kinds, args, classes } = glob;
  const size = kinds.length + 1;
  glob.buffers ??= { seen: new Int32Array(size), live: new Int32Array(size), next: new Int32Array(size), mark: 0 };
  const buffers = glob.buffers;
  const { seen } = buffers;
  // Long before the marks would overflow, start over.
  if (buffers.mark > 0x3fffffff) {
    seen.fill(0);
    buffers.mark = 0;
  }
  let live = buffers.live;
  let next = buffers.next;
  let count = 0;
  let added = 0;
  let mark = ++buffers.mark;
  const add = (s: number): void => {
    if (seen[s] === mark) return;
    seen[s] = mark;
    next[added++] = s;
    const kind = kinds[s];
    if (kind === STAR || kind === ANY || kind === DIRS) add(s + 1);
    if (kind === DIRS) add(s + 3);
  };
  const swap = (): void => {
    const held = live;
    live = next;
    next = held;
    count = added;
  };
  add(0);
  swap();
  for (let at = from; at < to; at++) {
    const code = path.charCodeAt(at);
    mark = ++buffers.mark;
    added = 0;
    for (let i = 0; i < count; i++) {
      const s = live[i] as number;
      const kind = kinds[s];
      if (kind === ANY || (kind === STAR && code !== SLASH)) add(s);
      else if (kind === CHAR ? code === args[s] : kind === DIRS_END ? code === SLASH : kind === ONE ? code !== SLASH : kind === CLASS && code !== SLASH && inClass(classes[args[s] as number] as CharClass, code)) add(s + 1);
    }
    if (added === 0) return false;
    swap();
  }
  return seen[kinds.length] === mark;
}

function matchGlob(glob: Glob, path: string): boolean {
  const { head, tail } = glob;
  const to = path.length - tail.length;
  if (to < head.length || !path.startsWith(head) || !path.endsWith(tail)) return false;
  // Each literal run takes its own characters, in order: a path without them cannot match.
  let at = head.length;
  for (const piece of glob.pieces) {
    const found = path.indexOf(piece, at);
    if (found < 0 || found + piece.length > to) return false;
    at = found + piece.length;
  }
  return (to - head.length) * (glob.kinds.length + 1) <= MAX_WORK && runGlob(glob, path, head.length, to);
}

/**
 * A requested path (a payload's file, the paths a model passed) against a file: the same file, or the file inside
 * it. Never a glob: a written `file_path` of `*`s is a name like any other.
 */
export function withinPath(file: string, requested: string): boolean {
  const p = cleanPath(requested);
  return p !== "" && inside(cleanPath(file), p);
}

function inside(file: string, dir: string): boolean {
  return file === dir || file.startsWith(`${dir}/`);
}

/**
 * Spec 6.5 `matchPath`: `pattern` is a rule's. Beyond the spec's `*`, `**` and `**∕`, a glob may use `?`, `[…]` and
 * `{a,b}`; anything else (extglobs, a leading `!`) is literal text.
 */
export function matchPath(file: string, pattern: string): boolean {
  const f = cleanPath(file);
  const p = cleanPath(pattern);
  if (!p) return false;
  if (p.endsWith("/**") && !p.slice(0, -3).includes("*")) return inside(f, p.slice(0, -3));
  if (!p.includes("*")) return inside(f, p);
  const compiled = compiledGlob(p);
  return compiled !== null && compiled.some((glob) => matchGlob(glob, f));
}
