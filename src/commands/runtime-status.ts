import { defineCommand } from "../cli/command.ts";
import { printJson } from "../core/output.ts";
import { sayLines } from "../human/lazy.ts";
import { DIR_ARG, JSON_ARG, userRoot } from "../runtime/args.ts";
import { formatRuntimeStatus, runtimeStatus } from "../runtime/status.ts";
import { openStoreOrReport } from "../runtime/store-access.ts";
import { closeStore } from "../store/db.ts";

export default defineCommand({
  meta: { name: "runtime:status", description: "Show tasks, runs and recent events of the store" },
  args: { dir: DIR_ARG, json: JSON_ARG },
  async run({ args }) {
    const root = userRoot(args.dir);
    const store = openStoreOrReport(root, args.json === true);
    if (!store) return;
    try {
      const status = runtimeStatus(store.db, root, store.path);
      if (args.json) printJson(status);
      else await sayLines(formatRuntimeStatus(status));
    } finally {
      closeStore(store);
    }
  },
});
