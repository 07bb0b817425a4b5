import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseFrontmatter, type Frontmatter } from "./frontmatter.ts";
import { frontmatterProblems } from "./schema.ts";

/** A markdown document under `.aioson/`, read once per process. */
export type MarkdownDoc = {
  /** Project-relative path with `/` separators. */
  rel: string;
  /** File name (with `.md`). */
  name: string;
  /** Raw text (BOM removed). */
  text: string;
  frontmatter: Frontmatter;
};

export type BrokenDoc = { rel: string; problem: string };

export type DirListing = { docs: MarkdownDoc[]; broken: BrokenDoc[] };

const cache = new Map<string, DirListing>();

function toRel(parts: readonly string[]): string {
  return parts.join("/");
}

function walk(root: string, relParts: string[], recursive: boolean, validate: boolean, out: DirListing): void {
  let entries;
  try {
    entries = readdirSync(join(root, ...relParts), { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith(".")) continue;
    const parts = [...relParts, entry.name];
    if (entry.isDirectory()) {
      if (recursive) walk(root, parts, recursive, validate, out);
      continue;
    }
    if (!entry.isFile() || !entry.name.toLowerCase().endsWith(".md")) continue;
    const rel = toRel(parts);
    let text: string;
    try {
      text = readFileSync(join(root, ...parts), "utf8");
    } catch (error) {
      out.broken.push({ rel, problem: `unreadable: ${error instanceof Error ? error.message : String(error)}` });
      continue;
    }
    if (text.includes("\u0000")) {
      out.broken.push({ rel, problem: "binary content" });
      continue;
    }
    const frontmatter = parseFrontmatter(text);
    const problems = validate ? [...frontmatter.problems, ...frontmatterProblems(frontmatter.data)] : [];
    if (problems.length > 0) {
      out.broken.push({ rel, problem: problems.join("; ") });
      continue;
    }
    out.docs.push({ rel, name: entry.name, text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, frontmatter });
  }
}

/**
 * Markdown files under `<root>/<dir>` (dir given with `/`), sorted by path. Rule files are validated:
 * an invalid one is listed in `broken` instead of `docs` so that no caller ever half-applies it.
 * Other documents (context, docs) are free-form and never rejected.
 */
export function listMarkdown(root: string, dir: string, recursive: boolean): DirListing {
  const key = `${root}\u0000${dir}\u0000${recursive}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const out: DirListing = { docs: [], broken: [] };
  walk(root, dir.split("/"), recursive, dir === ".aioson/rules" || dir.startsWith(".aioson/rules/"), out);
  cache.set(key, out);
  return out;
}

export function isReadme(name: string): boolean {
  return name.toLowerCase() === "readme.md";
}
