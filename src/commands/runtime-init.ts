import { defineCommand } from "../cli/command.ts";
import { printJson } from "../core/output.ts";
import { say } from "../human/lazy.ts";
import { DIR_ARG, JSON_ARG, userRoot } from "../runtime/args.ts";
import { closeStore, openStore } from "../store/db.ts";
import { runtimeDir } from "../store/paths.ts";

export default defineCommand({
  meta: { name: "runtime:init", description: "Create (or migrate) the runtime store" },
  args: { dir: DIR_ARG, json: JSON_ARG },
  async run({ args }) {
    const root = userRoot(args.dir);
    const store = openStore(root);
    if (!store) throw new Error("The runtime store could not be opened.");
    closeStore(store);
    if (args.json) printJson({ ok: true, targetDir: root, runtimeDir: runtimeDir(root), dbPath: store.path });
    else await say("success", `Runtime store initialized: ${store.path}`);
  },
});
