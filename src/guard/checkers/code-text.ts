/** Source-text helpers shared by the dialog and size checkers. */

const SPECIAL = /[/"'`]/g;
const REGEX_CONTEXT = "(,=:[!&|?{};+-*%<>~^";

function blanked(text: string, from: number, to: number): string {
  const part = text.slice(from, to);
  return part.includes("\n") ? part.replace(/[^\n]/g, " ") : " ".repeat(part.length);
}

/** The last non-blank character before `index`, or "" at the start. */
function previousSignificant(text: string, index: number): string {
  for (let k = index - 1; k >= 0; k--) {
    const ch = text[k] as string;
    if (ch !== " " && ch !== "\t" && ch !== "\n" && ch !== "\r") return ch;
  }
  return "";
}

/** A string literal's body after its opening quote: escapes skip any character; only templates span lines. */
const STRING_BODY: ReadonlyMap<string, RegExp> = new Map([
  ['"', /(?:[^"\\\n]|\\[\s\S])*/y],
  ["'", /(?:[^'\\\n]|\\[\s\S])*/y],
  ["`", /(?:[^`\\]|\\[\s\S])*/y],
]);

/**
 * End (exclusive) of the string literal opened at `start`: after its closing quote, at the newline that
 * leaves it unterminated, or the end of the text. One sticky regex instead of a character loop.
 */
function stringEnd(text: string, start: number): number {
  const quote = text[start] as string;
  const body = STRING_BODY.get(quote) as RegExp;
  body.lastIndex = start + 1;
  if (body.exec(text) === null) return text.length;
  const stop = body.lastIndex;
  if (text[stop] === quote) return stop + 1;
  if (text[stop] === "\n" && quote !== "`") return stop;
  return text.length;
}

/** End (exclusive) of a regex literal opened at `start`, or -1 when the `/` is a division. */
function regexEnd(text: string, start: number): number {
  let inClass = false;
  for (let k = start + 1; k < text.length; k++) {
    const ch = text[k];
    if (ch === "\n") return -1;
    if (ch === "\\") k++;
    else if (ch === "[") inClass = true;
    else if (ch === "]") inClass = false;
    else if (ch === "/" && !inClass) return k + 1;
  }
  return -1;
}

let memoInput = "";
let memoOutput = "";

/**
 * Replaces the contents of strings, template literals, regex literals and comments by spaces
 * (newlines and delimiters kept), so that braces and calls inside them are never read as code.
 * Plain code is copied in slices between special characters: this runs cold on every hook call.
 */
export function neutralize(text: string): string {
  if (text === memoInput) return memoOutput;
  const parts: string[] = [];
  let copied = 0;
  SPECIAL.lastIndex = 0;
  for (let match = SPECIAL.exec(text); match; match = SPECIAL.exec(text)) {
    const i = match.index;
    const ch = text[i];
    const next = text[i + 1];
    let end = -1;
    let keepDelimiters = false;
    if (ch === "/" && next === "/") {
      const newline = text.indexOf("\n", i);
      end = newline < 0 ? text.length : newline;
    } else if (ch === "/" && next === "*") {
      const close = text.indexOf("*/", i + 2);
      end = close < 0 ? text.length : close + 2;
    } else if (ch === "/") {
      const previous = previousSignificant(text, i);
      if (!REGEX_CONTEXT.includes(previous) && previous !== "") continue;
      end = regexEnd(text, i);
      if (end < 0) continue;
      keepDelimiters = true;
    } else {
      end = stringEnd(text, i);
      keepDelimiters = true;
    }
    parts.push(text.slice(copied, i));
    if (keepDelimiters) {
      const closed = text[end - 1] === ch && end - 1 > i;
      parts.push(ch as string, blanked(text, i + 1, closed ? end - 1 : end), closed ? (ch as string) : "");
    } else parts.push(blanked(text, i, end));
    copied = end;
    SPECIAL.lastIndex = end;
  }
  parts.push(text.slice(copied));
  memoInput = text;
  memoOutput = parts.join("");
  return memoOutput;
}

const HASH_COMMENT_EXTS = new Set([".py", ".rb", ".ex", ".exs", ".sh", ".bash", ".zsh", ".yml", ".yaml", ".toml"]);
const CLOSING_ONLY = /^[\])};,]+$/;

/** Per line: does it count as logic (spec 6.9 `file-size`)? */
export function logicLineFlags(lines: readonly string[], ext: string): boolean[] {
  const hash = HASH_COMMENT_EXTS.has(ext);
  let inBlock = false;
  return lines.map((raw) => {
    const line = raw.trim();
    if (inBlock) {
      const end = line.indexOf("*/");
      if (end < 0) return false;
      inBlock = false;
      const rest = line.slice(end + 2).trim();
      return rest !== "" && !CLOSING_ONLY.test(rest);
    }
    if (line === "") return false;
    if (line.startsWith("/*")) {
      if (!line.includes("*/", 2)) inBlock = true;
      return false;
    }
    if (line.startsWith("//") || line.startsWith("-- ") || line.startsWith(";;") || line.startsWith("*")) return false;
    if (hash && line.startsWith("#") && !line.startsWith("#[")) return false;
    return !CLOSING_ONLY.test(line);
  });
}

export function countLogic(flags: readonly boolean[], from = 0, to = flags.length): number {
  let count = 0;
  for (let i = Math.max(0, from); i < Math.min(to, flags.length); i++) if (flags[i]) count++;
  return count;
}
