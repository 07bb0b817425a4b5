import { defineCommand } from "../cli/command.ts";
import { printJson, printLines } from "../core/output.ts";
import { DIR_ARG, JSON_ARG, userRoot } from "../runtime/args.ts";
import { formatRuntimeStatus, runtimeStatus } from "../runtime/status.ts";
import { storeMissingMessage } from "../runtime/store-access.ts";
import { CommandError } from "../core/output.ts";
import { closeStore, openStore } from "../store/db.ts";
import { dbPath } from "../store/paths.ts";

export default defineCommand({
  meta: { name: "runtime:status", description: "Show tasks, runs and recent events of the store" },
  args: { dir: DIR_ARG, json: JSON_ARG },
  run({ args }) {
    const root = userRoot(args.dir);
    const store = openStore(root, { mustExist: true });
    if (!store) {
      if (!args.json) throw new CommandError(storeMissingMessage(dbPath(root)));
      printJson({ ok: false, error: "store_missing", dbPath: dbPath(root) });
      process.exitCode = 1;
      return;
    }
    try {
      const status = runtimeStatus(store.db, root, store.path);
      if (args.json) printJson(status);
      else printLines(formatRuntimeStatus(status));
    } finally {
      closeStore(store);
    }
  },
});
