import { extensionOf } from "./checkers/types.ts";

/** Spec 6.9 "what is judged" and 6.7 UI-surface detection: pure functions of a path (and content). */

export const SOURCE_EXTS = new Set(
  ".js .jsx .mjs .cjs .ts .tsx .py .rb .go .java .php .vue .svelte .css .scss .html .rs .kt .kts .swift .cs .dart .scala .ex .exs .c .h .cc .cpp .hpp .m .mm .sql .astro".split(" "),
);

const IGNORED_DIRS = new Set(
  ("node_modules .git dist build out coverage .next .nuxt .svelte-kit vendor .aioson .venv __pycache__ target obj Pods " +
    "Carthage DerivedData .dart_tool .pub-cache _build deps .gradle .terraform .cargo .turbo .output .parcel-cache " +
    "bower_components jspm_packages").split(" "),
);

const GOVERNANCE_PREFIXES = [".aioson/rules/", ".aioson/docs/", ".aioson/skills/"];

export type JudgedKind = "code" | "markdown";

/** `code`, `markdown` (product docs agents write under `.aioson/`), or null (never judged). */
export function judgedKind(rel: string): JudgedKind | null {
  if (rel.startsWith("/") || /^[A-Za-z]:\//.test(rel) || rel.startsWith("../")) return null;
  const ext = extensionOf(rel);
  if (ext === ".md" || ext === ".mdx") {
    if (!rel.startsWith(".aioson/")) return null;
    return GOVERNANCE_PREFIXES.some((prefix) => rel.startsWith(prefix)) ? null : "markdown";
  }
  if (!SOURCE_EXTS.has(ext)) return null;
  const dirs = rel.split("/").slice(0, -1);
  return dirs.some((dir) => IGNORED_DIRS.has(dir)) ? null : "code";
}

const UI_EXTS = new Set([".html", ".htm", ".css", ".scss", ".sass", ".less", ".jsx", ".tsx", ".vue", ".svelte", ".astro", ".md", ".mdx"]);
const SCRIPT_EXTS = new Set([".js", ".mjs", ".cjs", ".ts", ".mts", ".cts"]);
const DOM_TOUCH =
  /document\.(?:getElementById|querySelectorAll|querySelector|createElement|addEventListener|body)|classList\.|innerHTML|<\/?[a-z][\w.-]*(?:\s[^<>]*)?\/?>|className=|useState\(|createRoot\(/i;

/** The surface kinds of an edited file; `ui` is the only kind today. */
export function surfaceKinds(file: string, content: string): string[] {
  const ext = extensionOf(file.replaceAll("\\", "/"));
  if (UI_EXTS.has(ext)) return ["ui"];
  if (SCRIPT_EXTS.has(ext) && DOM_TOUCH.test(content)) return ["ui"];
  return [];
}
