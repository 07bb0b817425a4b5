import { countLogic, logicLineFlags, neutralize } from "./code-text.ts";
import { extensionOf, fileNameOf, type CheckFile, type CheckOptions, type Finding } from "./types.ts";

/** Checkers `file-size` and `function-size` (spec 6.9). */

const EXEMPT_DIRS = new Set(
  ("test tests __tests__ fixtures __fixtures__ mocks __mocks__ snapshots __snapshots__ e2e cypress factories migrations " +
    "locales i18n lang translations generated vendor routes config").split(" "),
);
const EXEMPT_NAMES: readonly RegExp[] = [
  /\.(test|spec|stories|fixture|factory|d|min|generated|config)\.[^.]+$/i,
  /^(messages|strings|translations)\.[^.]+$/i,
  /^[a-z]{2,3}[-_][A-Z]{2}\.[^.]+$/,
  /_test\.go$/,
  /_spec\.rb$/,
  /_test\.py$/,
  /Test\.(java|kt|cs|php|swift)$/,
  /^routes\.[^.]+$/i,
];
const INDENT_EXTS = new Set([".py", ".rb", ".ex", ".exs"]);

export function isSizeExempt(rel: string): boolean {
  const parts = rel.split("/");
  const name = parts.pop() ?? "";
  if (parts.some((part) => EXEMPT_DIRS.has(part.toLowerCase()))) return true;
  return EXEMPT_NAMES.some((pattern) => pattern.test(name));
}

export function checkFileSize(file: CheckFile, options: CheckOptions): Finding[] {
  if (file.lines.length === 0 || isSizeExempt(file.rel)) return [];
  const count = countLogic(logicLineFlags(file.lines, extensionOf(file.rel)));
  const limit = options.maxFileLines;
  if (count <= limit) return [];
  const summary = `${count} logic lines (limit ${limit})`;
  return [{
    category: "FILE_SIZE",
    severity: "HIGH",
    message: `${fileNameOf(file.rel)} has ${summary}`,
    summary,
    file: file.reportFile,
    line: null,
    token: "file-size",
    scope: "file",
    snippet: "",
  }];
}

const CONTROL_WORDS = new Set(["if", "for", "while", "switch", "catch", "with", "function", "return", "else", "do", "try", "elif", "unless", "until", "foreach", "typeof", "new", "await", "super", "constructor"]);

const OPENERS: readonly RegExp[] = [
  /\bfunction\s*\*?\s*([A-Za-z_$][\w$]*)\s*[(<]/,
  /\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:async\s+)?(?:function\b|(?:\([^)]*\)|[A-Za-z_$][\w$]*)\s*(?::\s*[^=]+)?=>)/,
  /\bfunc\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)\s*[(<[]/,
  /\bfn\s+([A-Za-z_]\w*)/,
  /\b(?:fun|def)\s+([A-Za-z_][\w]*)\s*[(<[]/,
  /^\s*(?:(?:public|private|protected|static|async|override|readonly|abstract|final|internal|open|suspend)\s+)*([A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?\([^)]*\)\s*(?::[^=]+)?=>\s*\{/,
  /^\s*(?:(?:public|private|protected|static|async|override|abstract|final|internal|open|suspend|get|set)\s+)*\*?\s*([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\s*\([^()]*\)\s*(?::\s*[^{=;]+)?\s*\{/,
];

/** Lines that can open a named function; everything else skips the opener regexes (a cold hook path). */
const MAYBE_OPENER = /function|=>|\bfunc?\s|\bfn\s|\bdef\s|\([^)]*\).*\{/;

type Span = { name: string; line: number; start: number; end: number };

/** Index of the line holding `index`, given each line's start offset. */
function lineOf(lineStarts: readonly number[], index: number): number {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((lineStarts[mid] as number) <= index) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

type Braces = {
  /** For every `{` of the code, the index of its matching `}` (unmatched ⇒ absent). */
  pairs: Map<number, number>;
  /** The line of every `{` whose body spans more than `minLines` lines. */
  longOpenLines: number[];
};

/** One pass over the braces (and, by `indexOf` jumps, the newlines) of the code. */
function braceMatches(code: string, minLines: number): Braces {
  const pairs = new Map<number, number>();
  const longOpenLines: number[] = [];
  const open: number[] = [];
  const openLine: number[] = [];
  let line = 0;
  let newline = code.indexOf("\n");
  // Braces come in increasing order, so the line count only moves forward.
  const lineAt = (index: number): number => {
    while (newline >= 0 && newline < index) {
      line++;
      newline = code.indexOf("\n", newline + 1);
    }
    return line;
  };
  for (let i = code.indexOf("{"), j = code.indexOf("}"); i >= 0 || j >= 0; ) {
    if (i >= 0 && (j < 0 || i < j)) {
      open.push(i);
      openLine.push(lineAt(i));
      i = code.indexOf("{", i + 1);
    } else {
      const from = open.pop();
      const fromLine = openLine.pop();
      if (from !== undefined && fromLine !== undefined) {
        pairs.set(from, j);
        if (lineAt(j) - fromLine - 1 > minLines) longOpenLines.push(fromLine);
      }
      j = code.indexOf("}", j + 1);
    }
  }
  return { pairs, longOpenLines };
}

/**
 * Brace languages: named openers, body from the first `{` at paren depth 0 (within 24 lines) to its `}`.
 * Only a body of more than `minLines` lines can hold more logic lines than that, so only the lines at most
 * 24 above such a body are read for an opener (a cold hook path: most files have no long body but their class).
 */
function braceFunctions(lines: readonly string[], minLines: number): Span[] {
  const code = neutralize(lines.join("\n"));
  const { pairs, longOpenLines } = braceMatches(code, minLines);
  if (longOpenLines.length === 0) return [];
  const codeLines = code.split("\n");
  const worth = new Uint8Array(codeLines.length);
  for (const line of longOpenLines) worth.fill(1, Math.max(0, line - 24), line + 1);
  let lineStarts: number[] | null = null;
  const spans: Span[] = [];
  // Only the marked lines, in order (a native scan skips the rest).
  for (let index = worth.indexOf(1); index >= 0; index = worth.indexOf(1, index + 1)) {
    const line = codeLines[index] as string;
    if (!MAYBE_OPENER.test(line)) continue;
    lineStarts ??= startsOf(codeLines);
    const span = spanAt(code, line, index, lineStarts, pairs);
    if (span) spans.push(span);
  }
  return spans;
}

function startsOf(codeLines: readonly string[]): number[] {
  const starts: number[] = [];
  let offset = 0;
  for (const line of codeLines) {
    starts.push(offset);
    offset += line.length + 1;
  }
  return starts;
}

/** The function opened on line `index`, if a named opener starts there and its body is found. */
function spanAt(code: string, line: string, index: number, lineStarts: readonly number[], pairs: ReadonlyMap<number, number>): Span | null {
  let name: string | undefined;
  let at = 0;
  for (const opener of OPENERS) {
    const match = opener.exec(line);
    if (match && !CONTROL_WORDS.has(match[1] as string)) {
      name = match[1] as string;
      at = match.index;
      break;
    }
  }
  if (!name) return null;
  const limit = lineStarts[Math.min(index + 25, lineStarts.length - 1)] as number;
  const stop = index + 25 < lineStarts.length ? limit : code.length;
  let depth = 0;
  for (let c = (lineStarts[index] as number) + at; c < stop; c++) {
    const ch = code[c];
    if (ch === "(") depth++;
    else if (ch === ")") depth--;
    else if (ch === ";" && depth === 0) return null;
    else if (ch === "{" && depth === 0) {
      const close = pairs.get(c);
      return close === undefined ? null : { name, line: index + 1, start: lineOf(lineStarts, c) + 1, end: lineOf(lineStarts, close) };
    }
  }
  return null;
}

/** Indentation languages: `def name` to the last deeper-indented line (Ruby `end` at the same indent included). */
function indentFunctions(lines: readonly string[]): Span[] {
  const spans: Span[] = [];
  const indent = (line: string) => line.length - line.trimStart().length;
  lines.forEach((line, index) => {
    const match = /^(\s*)def\s+([A-Za-z_][\w.]*[?!]?)/.exec(line);
    if (!match) return;
    const base = (match[1] as string).length;
    let last = index;
    for (let l = index + 1; l < lines.length; l++) {
      const text = lines[l] as string;
      if (text.trim() === "") continue;
      if (indent(text) > base) last = l;
      else {
        if (indent(text) === base && text.trim() === "end") last = l;
        break;
      }
    }
    spans.push({ name: match[2] as string, line: index + 1, start: index + 1, end: last + 1 });
  });
  return spans;
}

export function checkFunctionSize(file: CheckFile, options: CheckOptions): Finding[] {
  if (file.lines.length === 0 || isSizeExempt(file.rel)) return [];
  const ext = extensionOf(file.rel);
  const limit = options.maxFunctionLines;
  const spans = INDENT_EXTS.has(ext) ? indentFunctions(file.lines) : braceFunctions(file.lines, limit);
  if (spans.length === 0) return [];
  const flags = logicLineFlags(file.lines, ext);
  const out: Finding[] = [];
  for (const span of spans) {
    const count = countLogic(flags, span.start, span.end);
    if (count <= limit) continue;
    const summary = `\`${span.name}\` has ${count} logic lines (limit ${limit})`;
    out.push({
      category: "FUNCTION_SIZE",
      severity: "HIGH",
      message: summary,
      summary,
      file: file.reportFile,
      line: span.line,
      token: span.name,
      scope: "file",
      snippet: (file.lines[span.line - 1] ?? "").trim().slice(0, 200),
    });
  }
  return out;
}
