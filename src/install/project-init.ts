/** The minimal project tree `init` creates: `.aioson/config.md`, `.aioson/rules/` with one example rule, the store. */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ensureProjectDir, writeProjectFileAtomic } from "../core/project-fs.ts";
import { closeStore, openStore } from "../store/db.ts";
import { dbPath } from "../store/paths.ts";

const CONFIG = `# AIOSON project

This folder is an AIOSON project. Agents' hooks record their work in \`.aioson/runtime/\`,
and \`context:guard\` brings the rules of \`.aioson/rules/\` to the moment a file is written.
`;

const EXAMPLE_RULE = `---
description: Example rule — keep source code identifiers in English
agents: [dev, qa]
modes: [executing]
paths: ["src/**"]
load_tier: trigger
priority: 10
---

# Source code language

Write identifiers, comments and commit messages in English, whatever language the conversation uses.
Delete or adapt this example: every Markdown file in \`.aioson/rules/\` is a rule the guard can inject.
`;

const CONFIG_FILE = join(".aioson", "config.md");
const RULES_DIR = join(".aioson", "rules");
const EXAMPLE_RULE_FILE = join(RULES_DIR, "example-source-language.md");

/** Every project path `update` writes: the store and its WAL files (checked before anything is written). */
export function storePaths(root: string): string[] {
  const db = dbPath(root);
  return [db, `${db}-wal`, `${db}-shm`];
}

/** Every project path `init` writes (checked before anything is written). */
export function projectTreePaths(root: string): string[] {
  return [join(root, CONFIG_FILE), join(root, EXAMPLE_RULE_FILE), ...storePaths(root)];
}

/**
 * Relative paths created (or that would be created in a dry run), in creation order. Written through
 * src/core/project-fs.ts: never through a symlink, never outside `root`.
 */
export function createProjectTree(root: string, dryRun: boolean): string[] {
  const created: string[] = [];
  if (!existsSync(join(root, CONFIG_FILE))) {
    if (!dryRun) writeProjectFileAtomic(root, join(root, CONFIG_FILE), CONFIG);
    created.push(CONFIG_FILE);
  }
  // An existing rules folder is the user's, whatever is in it.
  if (!existsSync(join(root, RULES_DIR))) {
    if (!dryRun) {
      ensureProjectDir(root, join(root, RULES_DIR));
      writeProjectFileAtomic(root, join(root, EXAMPLE_RULE_FILE), EXAMPLE_RULE);
    }
    created.push(EXAMPLE_RULE_FILE);
  }
  if (!existsSync(dbPath(root))) {
    if (!dryRun) migrateStore(root);
    created.push(join(".aioson", "runtime", "aios.sqlite"));
  }
  return created;
}

/** Opens (creating or migrating to the current schema) and closes the store. */
export function migrateStore(root: string): void {
  const store = openStore(root);
  if (store) closeStore(store);
}
