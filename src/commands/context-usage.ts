import { defineCommand, type CommandDef } from "../cli/command.ts";
import { USAGE_DEFAULT_DAYS } from "../usage/window.ts";
import { printJson } from "../core/output.ts";
import { say, sayLines } from "../human/lazy.ts";

/** `aioson context:usage` (spec 7): always exit 0; a missing store means "nothing recorded". */

function sinceDays(value: unknown): number {
  if (typeof value !== "string" || !/^\d+(\.\d+)?$/.test(value.trim())) return USAGE_DEFAULT_DAYS;
  const days = Number(value);
  return days > 0 ? days : USAGE_DEFAULT_DAYS;
}

const command = defineCommand({
  meta: { name: "context:usage", description: "Report whether injected rules were honoured" },
  args: {
    dir: { type: "positional", required: false, description: "Project directory (default: cwd)" },
    since: { type: "string", description: "Window in days (default 30)" },
    feature: { type: "string", description: "Only briefs of this feature slug" },
    json: { type: "boolean", alias: "j", default: false, description: "Print the report as JSON" },
  },
  async run({ args }) {
    const { resolveUserRoot } = await import("../core/project-root.ts");
    const { openStore, closeStore } = await import("../store/db.ts");
    const { buildReport, emptyReport, reportLines } = await import("../usage/report.ts");
    const root = resolveUserRoot(typeof args.dir === "string" && args.dir !== "" ? args.dir : process.cwd());
    const days = sinceDays(args.since);
    const feature = typeof args.feature === "string" && args.feature.trim() !== "" ? args.feature.trim() : null;
    let report = emptyReport(days, feature);
    try {
      const store = openStore(root, { mustExist: true, readonly: true });
      if (store) {
        try {
          report = buildReport(root, store.db, days, feature);
        } finally {
          closeStore(store);
        }
      }
    } catch (error) {
      // A locked or damaged store is reported, never turned into a failing exit status (spec 7.1).
      const message = error instanceof Error ? error.message : String(error);
      if (args.json) printJson({ ...report, store: true, error: message });
      else await say("warn", `Context usage: the runtime store could not be read (${message}) — nothing to report.`);
      process.exitCode = 0;
      return;
    }
    if (args.json) printJson(report);
    else await sayLines(reportLines(report));
    process.exitCode = 0;
  },
});

export default command as CommandDef;
