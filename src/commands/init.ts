import { defineCommand } from "../cli/command.ts";
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { escapeDataTree } from "../core/project-root.ts";
import { withProgress } from "../human/progress.ts";
import { finish, projectHooksArgs, stringOrUndefined } from "../install/cli-args.ts";
import { assertProjectWritable, installProjectHooks } from "../install/project-hooks.ts";
import { createProjectTree, projectTreePaths } from "../install/project-init.ts";

export default defineCommand({
  meta: { name: "init", description: "Create a minimal AIOSON project and install its hooks" },
  args: projectHooksArgs("Install the hooks (--no-hooks skips them)"),
  run({ args }) {
    const cwd = process.cwd();
    const dryRun = args["dry-run"] === true;
    // A folder inside a data tree is never made a project of its own (spec 1.2).
    const root = escapeDataTree(resolve(cwd, stringOrUndefined(args.dir) ?? "."));
    const hooksRequest = { dir: root, cwd, tool: stringOrUndefined(args.tool), hooks: args.hooks !== false, dryRun, env: process.env };
    assertProjectWritable(hooksRequest, projectTreePaths(root));
    const { created, hooks } = withProgress("Initialising the project", (step) => {
      step("the .aioson/ tree and the store");
      if (!dryRun) mkdirSync(root, { recursive: true });
      const tree = createProjectTree(root, dryRun);
      step("the hooks of every harness found");
      return { created: tree, hooks: installProjectHooks(hooksRequest) };
    }, 2);
    const lines = [`AIOSON project ${dryRun ? "[dry-run] " : ""}— ${root}`];
    for (const path of created) lines.push(`  ${dryRun ? "[dry-run] Would create" : "✓ Created"} ${path}`);
    if (created.length === 0) lines.push("  Already initialised — nothing to create");
    lines.push(...hooks.lines);
    finish({ lines, result: { ok: true, root, dryRun, created, hooksInstall: hooks.hooksInstall } as { ok: boolean } }, args.json === true);
  },
});
