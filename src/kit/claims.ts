/**
 * verify-claims: the file paths an assistant names in its answer must have been touched by a tool in the same
 * turn (read, search, list, create, edit, shell — inputs or outputs). Matching is by path suffix both ways on
 * `/`-normalised, case-folded paths (`/home/me/app/src/a.ts` verifies `src/a.ts` and the other way round).
 */
import { Sanitizer, withheldLine } from "../text/sanitize.ts";
import type { Turn } from "./transcript.ts";

export const MIN_PATH_LENGTH = 6;
export const DEFAULT_MAX_PATHS = 10;

/** Extensions a bare file name (no directory part) must carry to count as a path, and only in `inline code`. */
const FILE_EXTENSIONS = new Set([
  "ts", "tsx", "js", "jsx", "mjs", "cjs", "json", "jsonc", "md", "mdx", "txt", "yml", "yaml", "toml", "ini", "cfg", "conf",
  "py", "rb", "go", "rs", "java", "kt", "kts", "swift", "c", "h", "cc", "cpp", "hpp", "cs", "php", "vue", "svelte", "astro",
  "html", "css", "scss", "sass", "less", "sql", "sh", "bash", "zsh", "ps1", "bat", "cmd", "lock", "env", "xml", "gradle",
  "dart", "ex", "exs", "erl", "lua", "pl", "r", "scala", "tf", "proto", "graphql", "gql", "csv", "ipynb", "dockerfile",
]);

const ROOTED = /^(?:\/|~\/|\.{1,2}\/|[A-Za-z]:\/)/;
const EXTENSION = /\.([A-Za-z][A-Za-z0-9]{0,9})$/;

export function normalizePath(path: string): string {
  return path
    .replaceAll("\\", "/")
    .replace(/^file:\/\//i, "")
    .replace(/\/{2,}/g, "/")
    .replace(/^(?:\.\/)+/, "")
    .replace(/\/+$/, "")
    .toLowerCase();
}

/** Strips wrapping punctuation and a `:line[:col]` or `#L12` suffix. */
function cleanToken(token: string): string {
  return token
    .replace(/^[([{<'"*_]+/, "")
    .replace(/[)\]}>'"*_,;:!?.]+$/, "")
    .replace(/(?::\d+){1,2}$/, "")
    .replace(/#L\d+(?:-L?\d+)?$/, "");
}

/** Is `token` (already cleaned) a file path? `quoted` = it appeared in inline code. */
function looksLikePath(token: string, quoted: boolean): boolean {
  if (token.includes("://") || token.includes("@") || token.includes("=") || /[<>|*?{}$]/.test(token)) return false;
  const normal = token.replaceAll("\\", "/");
  const ext = EXTENSION.exec(normal);
  if (normal.includes("/")) {
    const last = normal.slice(normal.lastIndexOf("/") + 1);
    if (!last) return false;
    return Boolean(EXTENSION.exec(last)) || ROOTED.test(normal);
  }
  return quoted && ext !== null && FILE_EXTENSIONS.has((ext[1] as string).toLowerCase());
}

const SPLIT = /[\s"'`()[\]{},;]+/;

/** Paths named in a text. Lines that say a path is "assumed" are the agent's own caveat and are skipped. */
export function mentionedPaths(text: string): string[] {
  const found = new Map<string, string>();
  for (const line of text.split("\n")) {
    if (/\bassum(?:ed|ption)\b|\bpresum/i.test(line)) continue;
    const code = new Set<string>();
    for (const match of line.matchAll(/`([^`\n]+)`/g)) for (const part of (match[1] as string).split(SPLIT)) code.add(cleanToken(part));
    for (const raw of line.split(SPLIT)) {
      const token = cleanToken(raw);
      if (token.length < MIN_PATH_LENGTH) continue;
      if (!looksLikePath(token, code.has(token))) continue;
      const key = normalizePath(token);
      if (key.length >= MIN_PATH_LENGTH && !found.has(key)) found.set(key, token);
    }
  }
  return [...found.values()];
}

function collectStrings(value: unknown, into: string[], depth = 0): void {
  if (depth > 6) return;
  if (typeof value === "string") into.push(value);
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, into, depth + 1);
  else if (value !== null && typeof value === "object") for (const item of Object.values(value)) collectStrings(item, into, depth + 1);
}

/** Every path-looking token in the tools' inputs and outputs of the turn, normalised. */
export function touchedPaths(turn: Turn): Set<string> {
  const texts: string[] = [];
  for (const tool of turn.tools) collectStrings(tool.input, texts);
  texts.push(...turn.toolOutputs);
  const touched = new Set<string>();
  for (const text of texts) {
    for (const raw of text.split(/[\s"'`()[\]{},;:=]+(?![\\/])/)) {
      const token = cleanToken(raw);
      if (token.length < 2 || !/[./\\]/.test(token)) continue;
      touched.add(normalizePath(token));
    }
  }
  return touched;
}

export function isVerified(mentioned: string, touched: ReadonlySet<string>): boolean {
  const path = normalizePath(mentioned);
  if (touched.has(path)) return true;
  for (const seen of touched) {
    if (seen.endsWith(`/${path}`) || path.endsWith(`/${seen}`)) return true;
  }
  return false;
}

/** The mentioned paths no tool touched, at most `max`. */
export function unverifiedPaths(turn: Turn, extraText: string, max = DEFAULT_MAX_PATHS): string[] {
  const text = [...turn.assistantText, extraText].join("\n");
  const mentioned = mentionedPaths(text);
  if (mentioned.length === 0) return [];
  const touched = touchedPaths(turn);
  return mentioned.filter((path) => !isVerified(path, touched)).slice(0, max);
}

/** The block reason; the paths are the model's own words going back to it, so each one is sanitised. */
export function unverifiedReason(paths: readonly string[]): string {
  const clean = new Sanitizer();
  const shown = paths.map((path) => clean.item(path)).filter((path): path is string => path !== null);
  const withheld = clean.withheld > 0 ? ` ${withheldLine(clean.withheld, "path(s)")}` : "";
  return `UNVERIFIED FILE REFERENCES — these paths were mentioned without prior tool verification: ${shown.join(", ")}.${withheld} Verify each with a tool (read, search, list) or mark it as assumed.`;
}
