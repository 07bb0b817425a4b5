/**
 * session-context: at SessionStart, one compact line of project and git state plus the recent commits, at most
 * 800 characters: `Project: app@1.2.0 | Branch: main | HEAD: abc1234 feat: x | Uncommitted changes: 3 files`.
 * Outside a git work tree: nothing. The project label, the branch name and every commit subject are the
 * repository's text going into a model: each is sanitised, and a withheld one is only counted. git runs with the
 * repository's own commands switched off (`./git.ts`).
 */
import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import { readProjectText } from "../core/project-read.ts";
import { Sanitizer, withheldLine } from "../text/sanitize.ts";
import { gitStatus, runGit } from "./git.ts";

export const CONTEXT_MAX = 800;
const RECENT_COMMITS = 5;

/** Manifests are small; a FIFO, a folder, a huge file or a symlink in their place is not read. */
const MAX_MANIFEST_BYTES = 1024 * 1024;

/**
 * `name@version` from package.json, else pyproject.toml / Cargo.toml / composer.json, else the folder name. The
 * manifests are repository files (read by project-fs's rule below `dir`); one skipped is logged in `root`'s hook log.
 */
function projectLabel(dir: string, root: string | null): string {
  const readText = (path: string): string | null => readProjectText(dir, path, MAX_MANIFEST_BYTES, root);
  const pkg = readText(join(dir, "package.json"));
  if (pkg) {
    try {
      const value = JSON.parse(pkg) as { name?: unknown; version?: unknown };
      if (typeof value.name === "string" && value.name) return typeof value.version === "string" && value.version ? `${value.name}@${value.version}` : value.name;
    } catch {
      // An unparsable package.json names nothing; try the other manifests.
    }
  }
  for (const manifest of ["pyproject.toml", "Cargo.toml"]) {
    const text = readText(join(dir, manifest));
    if (!text) continue;
    const name = /^\s*name\s*=\s*["']([^"']+)["']/m.exec(text)?.[1];
    const version = /^\s*version\s*=\s*["']([^"']+)["']/m.exec(text)?.[1];
    if (name) return version ? `${name}@${version}` : name;
  }
  const composer = readText(join(dir, "composer.json"));
  if (composer) {
    try {
      const value = JSON.parse(composer) as { name?: unknown; version?: unknown };
      if (typeof value.name === "string") return typeof value.version === "string" ? `${value.name}@${value.version}` : value.name;
    } catch {
      // fall through
    }
  }
  return basename(dir);
}

/** Branch line of `git status --porcelain=v1 -b`: `## main...origin/main [ahead 1]`, `## HEAD (no branch)`, `## No commits yet on main`. */
function branchOf(header: string): string {
  const text = header.replace(/^## /, "");
  const initial = /^(?:No commits yet|Initial commit) on (.+)$/.exec(text);
  if (initial) return initial[1] as string;
  if (text.startsWith("HEAD (no branch)")) return "(detached HEAD)";
  return text.split("...")[0]?.split(" ")[0] ?? text;
}

/** `<hash> <subject>` with the subject sanitised; the hash alone when the subject is withheld or empty. */
function commitLine(line: string, clean: Sanitizer): string {
  const space = line.indexOf(" ");
  const hash = (space < 0 ? line : line.slice(0, space)).replace(/[^0-9a-f]/gi, "");
  const subject = space < 0 ? null : clean.item(line.slice(space + 1));
  return subject ? `${hash} ${subject}` : hash;
}

/** `root`: the aioson project whose hook log names a skipped manifest (none outside one). */
export function sessionContext(dir: string, root: string | null): string | null {
  const status = gitStatus(dir);
  if (status === null) return null;
  const clean = new Sanitizer();
  const lines = status.split("\n").filter(Boolean);
  const branch = clean.item(branchOf(lines[0] ?? "")) ?? "(unnamed)";
  const changes = Math.max(0, lines.length - 1);
  const top = runGit(dir, ["rev-parse", "--show-toplevel"])?.trim();
  const log = runGit(dir, ["log", `-n${RECENT_COMMITS}`, "--no-show-signature", "--format=%h %s"]) ?? "";
  const commits = log.split("\n").filter(Boolean).map((line) => commitLine(line, clean));
  const project = clean.item(projectLabel(top && existsSync(top) ? top : dir, root)) ?? "(unnamed)";
  const head = commits[0] ?? "(no commits)";
  const summary = `Project: ${project} | Branch: ${branch} | HEAD: ${head} | Uncommitted changes: ${changes} file${changes === 1 ? "" : "s"}`;
  const parts = [summary.length > CONTEXT_MAX ? `${summary.slice(0, CONTEXT_MAX - 1)}…` : summary];
  const tail = clean.withheld > 0 ? withheldLine(clean.withheld) : null;
  const reserve = tail === null ? 0 : tail.length + 1;
  if (commits.length > 1) {
    const header = "Recent commits:";
    let length = parts[0]!.length + 1 + header.length + reserve;
    const kept: string[] = [];
    for (const commit of commits.slice(1)) {
      const line = `- ${commit}`;
      if (length + 1 + line.length > CONTEXT_MAX) break;
      kept.push(line);
      length += 1 + line.length;
    }
    if (kept.length > 0) parts.push(header, ...kept);
  }
  if (tail !== null && parts.join("\n").length + reserve <= CONTEXT_MAX) parts.push(tail);
  return parts.join("\n");
}
