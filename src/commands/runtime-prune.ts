import { defineCommand } from "../cli/command.ts";
import { printJson } from "../core/output.ts";
import { hooksSwitchedOff } from "../core/switch.ts";
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
    // Started by a session's end: the kill switch (AIOSON=0) stops it too, before the project is even looked for.
    if (args.auto) return hooksSwitchedOff() ? undefined : (await import("../runtime/auto-prune.ts")).runAutoPrune(userRoot(args.dir));
    // Loaded here, not above: the automatic prune never loads the output of the commands people read.
    const [{ printHuman }, { withProgress }] = await Promise.all([import("../human/output.ts"), import("../human/progress.ts")]);
    const root = userRoot(args.dir);
    const olderThanMs = retentionMs(args["older-than"]);
    const store = openStoreOrReport(root, args.json === true);
    if (!store) return;
    try {
      const dryRun = args["dry-run"] === true;
      const report = withProgress(dryRun ? "Counting what a prune would remove" : "Pruning", (onStep) => pruneStore(store, { olderThanMs, dryRun, vacuum: args.vacuum === true && !dryRun, onStep }));
      if (args.json) printJson({ ok: true, targetDir: root, dbPath: store.path, olderThanMs, ...report });
      else printHuman(formatPruneReport(report, olderThanMs));
    } finally {
      closeStore(store);
    }
  },
});
