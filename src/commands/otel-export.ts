import { defineCommand } from "../cli/command.ts";
import { CommandError, printJson, printLines } from "../core/output.ts";
import { resolveHookRoot } from "../core/project-root.ts";
import { DIR_ARG, JSON_ARG, startDir, userRoot } from "../runtime/args.ts";

/** README "Team dashboards": send the recorded events not sent yet to the configured OpenTelemetry collector. */
export default defineCommand({
  meta: { name: "otel:export", description: "Send the recorded events not sent yet to an OpenTelemetry collector (OTLP)" },
  args: {
    dir: DIR_ARG,
    "dry-run": { type: "boolean", alias: "d", description: "Show what would be sent (with --json: the OTLP/JSON request); send nothing" },
    json: JSON_ARG,
    auto: { type: "boolean", description: "As started by a Stop/SessionEnd hook: silent, waits out earlier failures, problems go to the hook log" },
  },
  async run({ args }) {
    if (args.auto) {
      // A project root that is gone by now means there is nothing to do.
      const root = resolveHookRoot(startDir(args.dir));
      if (root) await (await import("../otel/auto.ts")).runAutoExport(root);
      process.exitCode = 0;
      return;
    }
    const [{ loadOtelSettings }, { runOtelExport }, { formatExportReport }] = await Promise.all([import("../otel/config.ts"), import("../otel/export.ts"), import("../otel/format.ts")]);
    const root = userRoot(args.dir);
    const report = await runOtelExport({ root, settings: loadOtelSettings(), dryRun: args["dry-run"] === true, auto: false });
    if (report.problems && !args.json) throw new CommandError(`the OpenTelemetry settings are not valid: ${report.problems.join("; ")}`);
    if (args.json) printJson(report);
    else printLines(formatExportReport(report));
    process.exitCode = report.ok ? 0 : 1;
  },
});
