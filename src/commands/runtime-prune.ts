import { defineCommand } from "../cli/command.ts";
import { printJson, printLines } from "../core/output.ts";
import { DIR_ARG, JSON_ARG, userRoot } from "../runtime/args.ts";
import { formatPruneReport, retentionMs } from "../runtime/prune.ts";
import { openStoreOrReport } from "../runtime/store-access.ts";
import { closeStore } from "../store/db.ts";
import { pruneStore } from "../store/prune.ts";

export default defineCommand({
  meta: { name: "runtime:prune", description: "Remove events older than the retention period (default 30 days) and give the space back" },
  args: {
    dir: DIR_ARG,
    "older-than": { type: "string", description: "Retention period: 30d (default), 12h, 2w, or a number of days" },
    "dry-run": { type: "boolean", default: false, description: "Count what would be removed; write nothing" },
    vacuum: { type: "boolean", default: false, description: "Then rewrite the whole file (VACUUM), switching an older store to incremental vacuum" },
    auto: { type: "boolean", default: false, description: "The automatic prune a session's end starts (bounded, silent)" },
    json: JSON_ARG,
  },
  async run({ args }) {
    const root = userRoot(args.dir);
    if (args.auto) return (await import("../runtime/auto-prune.ts")).runAutoPrune(root);
    const olderThanMs = retentionMs(args["older-than"]);
    const store = openStoreOrReport(root, args.json === true);
    if (!store) return;
    try {
      const report = pruneStore(store, { olderThanMs, dryRun: args["dry-run"] === true, vacuum: args.vacuum === true && args["dry-run"] !== true });
      if (args.json) printJson({ ok: true, targetDir: root, dbPath: store.path, olderThanMs, ...report });
      else printLines(formatPruneReport(report, olderThanMs));
    } finally {
      closeStore(store);
    }
  },
});
