/** The minimal project tree `init` creates: `.aioson/config.md`, `.aioson/rules/` with one example rule, the store. */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
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

/** Relative paths created (or that would be created in a dry run), in creation order. */
export function createProjectTree(root: string, dryRun: boolean): string[] {
  const created: string[] = [];
  const data = join(root, ".aioson");
  const plan: [string, () => void][] = [
    [join(".aioson", "config.md"), () => writeFileSync(join(data, "config.md"), CONFIG)],
    [join(".aioson", "rules", "example-source-language.md"), () => {
      mkdirSync(join(data, "rules"), { recursive: true });
      writeFileSync(join(data, "rules", "example-source-language.md"), EXAMPLE_RULE);
    }],
  ];
  for (const [relative, make] of plan) {
    const absolute = join(root, relative);
    const skip = relative.includes("rules") ? existsSync(join(data, "rules")) : existsSync(absolute);
    if (skip) continue;
    if (!dryRun) {
      mkdirSync(data, { recursive: true });
      make();
    }
    created.push(relative);
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
