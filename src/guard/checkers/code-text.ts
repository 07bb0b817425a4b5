/** Source-text helpers shared by the dialog and size checkers. */

/**
 * Replaces the contents of strings, template literals, regex literals and comments by spaces
 * (newlines kept), so that braces and calls inside them are never read as code.
 */
export function neutralize(text: string): string {
  const out: string[] = [];
  let i = 0;
  let lastSignificant = "";
  const n = text.length;
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) out.push(text[k] === "\n" ? "\n" : " ");
  };
  while (i < n) {
    const ch = text[i] as string;
    const next = text[i + 1];
    if (ch === "/" && next === "/") {
      const end = text.indexOf("\n", i);
      const stop = end < 0 ? n : end;
      blank(i, stop);
      i = stop;
      continue;
    }
    if (ch === "/" && next === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end < 0 ? n : end + 2;
      blank(i, stop);
      i = stop;
      continue;
    }
    if (ch === '"' || ch === "'" || ch === "`") {
      let k = i + 1;
      while (k < n && text[k] !== ch) {
        if (text[k] === "\\") k++;
        else if (ch !== "`" && text[k] === "\n") break;
        k++;
      }
      out.push(ch);
      blank(i + 1, Math.min(k, n));
      if (k < n && text[k] === ch) out.push(ch);
      i = k + (k < n && text[k] === ch ? 1 : 0);
      lastSignificant = ch;
      continue;
    }
    if (ch === "/" && (lastSignificant === "" || "(,=:[!&|?{};+-*%<>~^".includes(lastSignificant))) {
      let k = i + 1;
      let inClass = false;
      while (k < n && text[k] !== "\n") {
        const c = text[k];
        if (c === "\\") k++;
        else if (c === "[") inClass = true;
        else if (c === "]") inClass = false;
        else if (c === "/" && !inClass) break;
        k++;
      }
      if (k < n && text[k] === "/") {
        out.push("/");
        blank(i + 1, k);
        out.push("/");
        i = k + 1;
        lastSignificant = "/";
        continue;
      }
    }
    out.push(ch);
    if (!/\s/.test(ch)) lastSignificant = ch;
    i++;
  }
  return out.join("");
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
