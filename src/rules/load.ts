import type { Dirent } from "node:fs";
import { join } from "node:path";
import { closeProjectFolder, folderEntries, isUnsafeProjectPath, openProjectFolder, openSubfolder, readFolderFile, UNLISTED_FOLDER, type ProjectFolder } from "../core/project-fs.ts";
import { logSkipped } from "../core/project-read.ts";
import { refusalText } from "../core/regular-file.ts";
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

/** A rule or document is a few pages of markdown; a larger one (96 MiB of one repeated line is 100 KB in git) is not read. */
const MAX_DOC_BYTES = 1024 * 1024;
/**
 * What all the listings of one process read together (context:guard lists several folders on every write): past
 * either bound the rest is left out, and said in the hook log.
 */
const MAX_FILES = 2_000;
const MAX_TOTAL_BYTES = 8 * 1024 * 1024;
/** Folders deeper than this below a listed folder are not walked (each level stays open while it is read). */
const MAX_DEPTH = 8;

/** What the listings of this process may still read. */
const budget = { files: MAX_FILES, bytes: MAX_TOTAL_BYTES };

/** One listing under way. */
type Walk = { root: string; recursive: boolean; validate: boolean; out: DirListing; stopped: boolean };

function toRel(parts: readonly string[]): string {
  return parts.join("/");
}

function byName(a: Dirent, b: Dirent): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** A document that is there but was not read: listed as broken (no caller half-applies it) and named in the hook log. */
function skip(walk: Walk, parts: readonly string[], why: string): void {
  walk.out.broken.push({ rel: toRel(parts), problem: `not read: ${why}` });
  logSkipped(walk.root, join(walk.root, ...parts), why);
}

function isMarkdown(name: string): boolean {
  return name.toLowerCase().endsWith(".md");
}

/** The documents of one folder (held open by project-fs: nothing on the way is a symlink), sorted by name. */
function walkFolder(walk: Walk, folder: ProjectFolder, relParts: string[], depth: number): void {
  let entries: Dirent[] | null;
  try {
    entries = folderEntries(folder);
  } catch {
    return;
  }
  if (entries === null) return skip(walk, relParts, UNLISTED_FOLDER);
  for (const entry of entries.sort(byName)) {
    if (walk.stopped) return;
    if (entry.name.startsWith(".")) continue;
    const parts = [...relParts, entry.name];
    if (entry.isDirectory()) {
      if (walk.recursive) walkSubfolder(walk, folder, parts, depth + 1);
    } else if (entry.isSymbolicLink()) {
      if (walk.recursive || isMarkdown(entry.name)) skip(walk, parts, "a symlink");
    } else if (isMarkdown(entry.name)) {
      readDoc(walk, folder, parts);
    }
  }
}

function walkSubfolder(walk: Walk, folder: ProjectFolder, parts: string[], depth: number): void {
  if (depth > MAX_DEPTH) return skip(walk, parts, `more than ${MAX_DEPTH} folders deep`);
  let sub: ProjectFolder | null;
  try {
    sub = openSubfolder(folder, parts.at(-1) as string);
  } catch (error) {
    if (isUnsafeProjectPath(error)) skip(walk, parts, error.why);
    return;
  }
  if (sub === null) return;
  try {
    walkFolder(walk, sub, parts, depth);
  } finally {
    closeProjectFolder(sub);
  }
}

function readDoc(walk: Walk, folder: ProjectFolder, parts: string[]): void {
  if (budget.files <= 0 || budget.bytes <= 0) {
    walk.stopped = true;
    return skip(walk, parts, `aioson reads at most ${MAX_FILES} documents and ${MAX_TOTAL_BYTES} bytes of them per call; this one and the rest are left out`);
  }
  budget.files -= 1;
  const name = parts.at(-1) as string;
  const read = readFolderFile(folder, name, MAX_DOC_BYTES);
  if (read.kind === "missing") return;
  if (read.kind !== "ok") return skip(walk, parts, refusalText(read));
  const text = read.text;
  budget.bytes -= text.length;
  const rel = toRel(parts);
  if (text.includes("\u0000")) {
    walk.out.broken.push({ rel, problem: "binary content" });
    return;
  }
  const frontmatter = parseFrontmatter(text);
  const problems = walk.validate ? [...frontmatter.problems, ...frontmatterProblems(frontmatter.data)] : [];
  if (problems.length > 0) {
    walk.out.broken.push({ rel, problem: problems.join("; ") });
    return;
  }
  walk.out.docs.push({ rel, name, text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, frontmatter });
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
  const parts = dir.split("/");
  const walk: Walk = { root, recursive, validate: dir === ".aioson/rules" || dir.startsWith(".aioson/rules/"), out, stopped: false };
  let folder: ProjectFolder | null = null;
  try {
    folder = openProjectFolder(root, join(root, ...parts));
  } catch (error) {
    // `.aioson/rules` (or a folder above it) as a symlink: nothing outside the project is read.
    if (isUnsafeProjectPath(error)) skip(walk, parts, error.why);
  }
  if (folder !== null) {
    try {
      walkFolder(walk, folder, parts, 0);
    } finally {
      closeProjectFolder(folder);
    }
  }
  cache.set(key, out);
  return out;
}

export function isReadme(name: string): boolean {
  return name.toLowerCase() === "readme.md";
}
