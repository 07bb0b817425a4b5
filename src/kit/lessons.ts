/**
 * lesson-injector: bilingual (pt-BR + en) keywords of the prompt become tags; lessons (`L*.md` with frontmatter
 * `tags` and `confidence`) sharing a tag are injected, top 5 by confidence, each summary at most 500 characters.
 * A lesson file is project text going into a model: its id, summary and path are sanitised, and a lesson any of
 * them reads like an instruction to an AI is withheld (counted) before the top 5 are taken.
 */
import { readdirSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { homeDir } from "../core/home.ts";
import { closeProjectFolder, folderEntries, isUnsafeProjectPath, openProjectFolder, readFolderFile, UNLISTED_FOLDER, type ProjectFileRead, type ProjectFolder } from "../core/project-fs.ts";
import { logSkipped, logSkippedRead } from "../core/project-read.ts";
import { isInside } from "../core/project-root.ts";
import { readRegularFile } from "../core/regular-file.ts";
import { Sanitizer, withheldLine } from "../text/sanitize.ts";

export const DEFAULT_LESSON_DIRS: readonly string[] = [join(".aioson", "lessons")];
export const DEFAULT_LIMIT = 5;
export const SUMMARY_MAX = 500;
const MAX_FILES = 500;
/** A lesson is a page of markdown; a larger file (or a FIFO, a folder) named like one is not read. */
const MAX_LESSON_BYTES = 256 * 1024;

/** Keyword (lower-case, accents kept) → tag. Portuguese and English forms side by side. */
const KEYWORDS: Readonly<Record<string, readonly string[]>> = {
  create: ["criar", "crie", "cria", "criando", "novo", "nova", "adicionar", "adicione", "implementar", "implemente", "create", "new", "add", "implement", "build", "scaffold"],
  fix: ["corrigir", "corrija", "consertar", "conserte", "bug", "erro", "falha", "quebrado", "quebrou", "fix", "error", "broken", "crash", "failing", "issue"],
  modify: ["editar", "edite", "alterar", "altere", "mudar", "mude", "modificar", "modifique", "atualizar", "atualize", "ajustar", "edit", "change", "modify", "update", "tweak", "adjust"],
  refactor: ["refatorar", "refatore", "refatoração", "reorganizar", "limpar", "refactor", "refactoring", "cleanup", "restructure", "rename"],
  test: ["teste", "testes", "testar", "cobertura", "test", "tests", "testing", "coverage", "spec", "specs"],
  hooks: ["hook", "hooks", "gancho", "ganchos", "pre-commit", "precommit"],
  docs: ["documentação", "documentacao", "documentar", "documente", "docs", "readme", "documentation", "document", "changelog"],
  deploy: ["deploy", "implantar", "publicar", "publique", "lançar", "release", "publish", "ship"],
  git: ["commit", "push", "merge", "rebase", "branch", "git", "tag"],
  performance: ["performance", "desempenho", "lento", "lentidão", "otimizar", "otimize", "slow", "optimize", "latency", "benchmark"],
  security: ["segurança", "seguranca", "vulnerabilidade", "senha", "segredo", "security", "vulnerability", "secret", "password", "auth", "token"],
  database: ["banco", "dados", "migração", "migracao", "tabela", "database", "sql", "migration", "schema", "query", "sqlite", "postgres"],
  api: ["api", "endpoint", "rota", "rotas", "route", "routes", "rest", "graphql"],
  ui: ["tela", "interface", "componente", "layout", "estilo", "ui", "ux", "css", "component", "screen", "frontend"],
  config: ["configuração", "configuracao", "configurar", "config", "configuration", "settings", "env"],
  review: ["revisar", "revisão", "revisao", "review", "auditar", "audit"],
};

let keywordIndex: Map<string, string> | null = null;

function index(): Map<string, string> {
  if (!keywordIndex) {
    keywordIndex = new Map();
    for (const [tag, words] of Object.entries(KEYWORDS)) for (const word of words) keywordIndex.set(word, tag);
  }
  return keywordIndex;
}

function words(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}-]+/u).filter(Boolean);
}

/** Tags of a prompt, in first-seen order. */
export function promptTags(prompt: string): string[] {
  const tags = new Set<string>();
  const map = index();
  for (const word of words(prompt)) {
    const tag = map.get(word) ?? map.get(word.replace(/-/g, ""));
    if (tag) tags.add(tag);
  }
  return [...tags];
}

export type Lesson = { id: string; path: string; tags: string[]; confidence: number; summary: string };

function frontmatter(text: string): { meta: Record<string, string | string[]>; body: string } {
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!match) return { meta: {}, body: text };
  const meta: Record<string, string | string[]> = {};
  let listKey: string | null = null;
  for (const line of (match[1] as string).split(/\r?\n/)) {
    const item = /^\s+-\s+(.*)$/.exec(line);
    if (item && listKey) {
      const list = meta[listKey];
      if (Array.isArray(list)) list.push(unquote(item[1] as string));
      continue;
    }
    const pair = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (!pair) continue;
    const key = (pair[1] as string).toLowerCase();
    const value = (pair[2] as string).trim();
    listKey = null;
    if (value === "") {
      meta[key] = [];
      listKey = key;
    } else if (value.startsWith("[") && value.endsWith("]")) {
      meta[key] = value.slice(1, -1).split(",").map(unquote).filter(Boolean);
    } else meta[key] = unquote(value);
  }
  return { meta, body: match[2] as string };
}

function unquote(value: string): string {
  return value.trim().replace(/^['"]|['"]$/g, "").trim();
}

/** `## Resumo` / `## Summary` section, else the first paragraph of the body; whitespace collapsed, capped. */
export function lessonSummary(body: string): string {
  const section = /^#{2,3}\s*(?:resumo|summary|sumário|sumario)\s*$([\s\S]*?)(?=^#{1,3}\s|(?![\s\S]))/im.exec(body);
  let text = section ? (section[1] as string) : "";
  if (!text.trim()) {
    const paragraphs = body.split(/\r?\n\s*\r?\n/).map((p) => p.trim()).filter((p) => p && !p.startsWith("#"));
    text = paragraphs[0] ?? "";
  }
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > SUMMARY_MAX ? `${flat.slice(0, SUMMARY_MAX - 1)}…` : flat;
}

export function parseLesson(path: string, fileName: string, text: string): Lesson {
  const { meta, body } = frontmatter(text);
  const rawTags = meta.tags;
  const tags = (Array.isArray(rawTags) ? rawTags : typeof rawTags === "string" ? rawTags.split(",") : []).map((tag) => tag.trim().toLowerCase()).filter(Boolean);
  const confidence = Number.parseFloat(typeof meta.confidence === "string" ? meta.confidence : "");
  const id = typeof meta.id === "string" && meta.id ? meta.id : (/^(L\d+)/i.exec(fileName)?.[1] ?? fileName.replace(/\.md$/i, ""));
  return { id, path, tags, confidence: Number.isFinite(confidence) ? confidence : 0, summary: lessonSummary(body) };
}

/** Lesson folders: relative to the project root, `~/…` to the home directory, or absolute. */
export function lessonDirs(root: string | null, configured: readonly string[] | undefined): string[] {
  const dirs: string[] = [];
  for (const dir of configured ?? DEFAULT_LESSON_DIRS) {
    if (dir === "~" || dir.startsWith("~/") || dir.startsWith("~\\")) dirs.push(join(homeDir(), dir.slice(2)));
    else if (isAbsolute(dir)) dirs.push(dir);
    else if (root) dirs.push(join(root, dir));
  }
  return dirs;
}

/**
 * The lessons of each folder (at most MAX_FILES per folder, by name). A folder inside the project is read by
 * project-fs's rule (no symlink on the way or as a lesson, each one bounded; a skipped one is named in the hook
 * log); a folder of the user's own (`~/…`, or absolute outside the project) is read as the user keeps it.
 */
export function loadLessons(root: string | null, dirs: readonly string[]): Lesson[] {
  const lessons: Lesson[] = [];
  for (const dir of dirs) lessons.push(...(root !== null && isInside(root, dir) ? projectLessons(root, dir) : userLessons(dir)));
  return lessons;
}

function lessonsIn(dir: string, names: readonly string[], read: (name: string) => ProjectFileRead): Lesson[] {
  const lessons: Lesson[] = [];
  for (const name of names.filter((n) => /^L.*\.md$/.test(n)).sort().slice(0, MAX_FILES)) {
    // A folder entry that is not a readable regular file is not a lesson (and never blocks the hook).
    const file = read(name);
    if (file.kind === "ok") lessons.push(parseLesson(join(dir, name), name, file.text));
  }
  return lessons;
}

function projectLessons(root: string, dir: string): Lesson[] {
  let folder: ProjectFolder | null;
  try {
    folder = openProjectFolder(root, dir);
  } catch (error) {
    if (isUnsafeProjectPath(error)) logSkipped(root, dir, error.why);
    return [];
  }
  if (folder === null) return [];
  const opened = folder;
  try {
    const entries = folderEntries(opened);
    if (entries === null) {
      logSkipped(root, dir, UNLISTED_FOLDER);
      return [];
    }
    return lessonsIn(dir, entries.map((entry) => entry.name), (name) => {
      const read = readFolderFile(opened, name, MAX_LESSON_BYTES);
      if (read.kind !== "ok") logSkippedRead(root, join(dir, name), read);
      return read;
    });
  } catch {
    return [];
  } finally {
    closeProjectFolder(opened);
  }
}

function userLessons(dir: string): Lesson[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return lessonsIn(dir, names, (name) => readRegularFile(join(dir, name), MAX_LESSON_BYTES));
}

export type PickedLessons = { tags: string[]; lessons: Lesson[]; withheld: number };

/** The lesson as it may be shown (every text sanitised), or null when one of them is withheld or empty. */
function shownLesson(lesson: Lesson, clean: Sanitizer): Lesson | null {
  const id = clean.item(lesson.id);
  const path = id === null ? null : clean.item(lesson.path);
  if (id === null || path === null) return null;
  const summary = lesson.summary ? clean.item(lesson.summary) : "";
  return summary === null ? null : { ...lesson, id, path, summary };
}

/** Lessons sharing a tag with the prompt (a lesson tag written in the prompt counts too), best first, sanitised. */
export function pickLessons(prompt: string, lessons: readonly Lesson[], limit = DEFAULT_LIMIT): PickedLessons {
  const tags = promptTags(prompt);
  const promptWords = new Set(words(prompt));
  const matched = new Set(tags);
  const picked = lessons.filter((lesson) => {
    const shared = lesson.tags.filter((tag) => matched.has(tag) || promptWords.has(tag));
    for (const tag of shared) matched.add(tag);
    return shared.length > 0;
  });
  picked.sort((a, b) => b.confidence - a.confidence || a.id.localeCompare(b.id));
  const clean = new Sanitizer();
  const shown: Lesson[] = [];
  for (const lesson of picked) {
    if (shown.length === limit) break;
    const safe = shownLesson(lesson, clean);
    if (safe) shown.push(safe);
  }
  const used = [...matched].filter((tag) => picked.some((lesson) => lesson.tags.includes(tag))).map((tag) => clean.item(tag)).filter((tag): tag is string => tag !== null);
  return { tags: used, lessons: shown, withheld: clean.withheld };
}

export function lessonsContext(picked: PickedLessons): string {
  const lines = [`Lições aprendidas relevantes / Relevant lessons learned (tags: ${picked.tags.join(", ")}):`];
  for (const lesson of picked.lessons) lines.push(`- [${lesson.id}] ${lesson.summary || "(no summary)"} (confidence: ${lesson.confidence}) — ${lesson.path}`);
  lines.push("Read a lesson file for the full record when it applies.");
  if (picked.withheld > 0) lines.push(withheldLine(picked.withheld, "lesson text(s)"));
  return lines.join("\n");
}
