import { defineCommand } from "../cli/command.ts";
import { CommandError } from "../core/output.ts";
import { isProjectRoot, resolveUserRoot } from "../core/project-root.ts";
import { withProgress } from "../human/progress.ts";
import { finish, projectHooksArgs, stringOrUndefined } from "../install/cli-args.ts";
import { assertProjectWritable, installProjectHooks } from "../install/project-hooks.ts";
import { migrateStore, storePaths } from "../install/project-init.ts";

export default defineCommand({
  meta: { name: "update", description: "Re-install the hooks and migrate the store" },
  args: projectHooksArgs("Re-install the hooks (--no-hooks skips them)"),
  run({ args }) {
    const cwd = process.cwd();
    const dryRun = args["dry-run"] === true;
    const root = resolveUserRoot(stringOrUndefined(args.dir) ?? cwd);
    if (!isProjectRoot(root)) throw new CommandError(`${root} is not an AIOSON project (no .aioson/config.md). Create one with: aioson init`);
    const hooksRequest = { dir: root, cwd, tool: stringOrUndefined(args.tool), hooks: args.hooks !== false, dryRun, env: process.env };
    assertProjectWritable(hooksRequest, storePaths(root));
    const hooks = withProgress("Updating the project", (step) => {
      step("migrating the store");
      if (!dryRun) migrateStore(root);
      step("re-installing the hooks");
      return installProjectHooks(hooksRequest);
    }, 2);
    const lines = [`AIOSON update ${dryRun ? "[dry-run] " : ""}— ${root}`, `  ${dryRun ? "[dry-run] Would migrate" : "✓ Store migrated"} .aioson/runtime/aios.sqlite`];
    lines.push(...hooks.lines);
    finish({ lines, result: { ok: true, root, dryRun, storeMigrated: !dryRun, hooksInstall: hooks.hooksInstall } as { ok: boolean } }, args.json === true);
  },
});
