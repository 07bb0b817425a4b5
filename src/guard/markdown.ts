import { existsSync } from "node:fs";
import { join } from "node:path";
import { extensionOf, type CheckFile } from "./checkers/types.ts";
import { SOURCE_EXTS } from "./kinds.ts";

/** Spec 6.9 "what a Markdown document names": its code blocks, cited paths and requested identifiers. */

const FENCE_LANGS = new Map<string, string>(Object.entries({
  js: ".js", javascript: ".js", jsx: ".jsx", ts: ".ts", typescript: ".ts", tsx: ".tsx", php: ".php", py: ".py",
  python: ".py", rb: ".rb", ruby: ".rb", go: ".go", java: ".java", kt: ".kt", kotlin: ".kt", cs: ".cs", csharp: ".cs",
  rs: ".rs", rust: ".rs", swift: ".swift", dart: ".dart", vue: ".vue", svelte: ".svelte", sql: ".sql",
}));

const INLINE_CODE = /`([^`\n]+)`/g;
const BARE_PATH = /(?:^|[\s|(])((?:[\w.@-]+\/)+[\w.@-]+\.[A-Za-z0-9]+)(?=$|[\s|),;:])/g;
const IDENTIFIER = /^[A-Za-z_$][\w$]*(\(\))?$/;

export type NamedCode = { files: CheckFile[] };

function citedPath(span: string): string | null {
  const path = span.replaceAll("\\", "/").replace(/^(\.\/)+/, "").replace(/:\d+(?::\d+)?$/, "");
  if (/\s/.test(path) || path.includes("://") || path.startsWith("/")) return null;
  return SOURCE_EXTS.has(extensionOf(path)) ? path : null;
}

function requestedIdentifier(span: string): string | null {
  const text = span.trim();
  if (!IDENTIFIER.test(text)) return null;
  const shaped = text.endsWith("()") || /[a-z][A-Z]/.test(text) || /^[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+$/.test(text);
  return shaped ? text.replace(/\(\)$/, "") : null;
}

/**
 * The code a plan names. Cited paths that exist are references, not decisions, and are skipped
 * unless `includeExisting` (the context:usage re-check).
 */
export function namedCode(root: string, text: string, includeExisting: boolean): CheckFile[] {
  const groups = new Map<string, string[]>();
  const cited: string[] = [];
  const identifiers: string[] = [];
  const group = (ext: string) => {
    let lines = groups.get(ext);
    if (!lines) groups.set(ext, (lines = []));
    return lines;
  };
  let fence: { char: string; length: number; ext: string } | null = null;
  for (const line of text.split("\n")) {
    if (fence) {
      const close = /^\s*(`{3,}|~{3,})\s*$/.exec(line);
      if (close && (close[1] as string)[0] === fence.char && (close[1] as string).length >= fence.length) fence = null;
      else group(fence.ext).push(line);
      continue;
    }
    const open = /^\s*(`{3,}|~{3,})\s*([\w+#.-]*)/.exec(line);
    if (open) {
      const marker = open[1] as string;
      fence = { char: marker[0] as string, length: marker.length, ext: FENCE_LANGS.get((open[2] as string).toLowerCase()) ?? ".js" };
      continue;
    }
    INLINE_CODE.lastIndex = 0;
    for (let match = INLINE_CODE.exec(line); match; match = INLINE_CODE.exec(line)) {
      const span = match[1] as string;
      const path = citedPath(span);
      if (path) cited.push(path);
      else {
        const identifier = requestedIdentifier(span);
        if (identifier) identifiers.push(identifier);
      }
    }
    const prose = line.replace(INLINE_CODE, " ");
    BARE_PATH.lastIndex = 0;
    for (let match = BARE_PATH.exec(prose); match; match = BARE_PATH.exec(prose)) {
      const path = citedPath(match[1] as string);
      if (path) cited.push(path);
    }
  }
  for (const identifier of identifiers) {
    group(".js").push(/^[A-Z]/.test(identifier) ? `class ${identifier} {}` : `function ${identifier}() {}`);
  }
  const files: CheckFile[] = [];
  for (const path of [...new Set(cited)]) {
    if (!includeExisting && existsSync(join(root, ...path.split("/")))) continue;
    files.push({ rel: path, lines: [], reportFile: path });
  }
  for (const [ext, lines] of groups) files.push({ rel: `index${ext}`, lines, reportFile: null });
  return files;
}
