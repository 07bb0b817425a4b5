import { defineCommand } from "../cli/command.ts";
import { CommandError, printJson } from "../core/output.ts";
import { hooksSwitchedOff } from "../core/switch.ts";
import { userConfigPath } from "../core/user-config.ts";
import { resolveHookRoot } from "../core/project-root.ts";
import { DIR_ARG, JSON_ARG, startDir, userRoot } from "../runtime/args.ts";

/** docs/team-export.md: send the recorded events not sent yet to the configured OpenTelemetry collector. */
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
      // Started by a hook: the kill switch (AIOSON=0) stops it too, before anything is read. A project root that is
      // gone by now means there is nothing to do.
      const root = hooksSwitchedOff() ? null : resolveHookRoot(startDir(args.dir));
      if (root) await (await import("../otel/auto.ts")).runAutoExport(root);
      process.exitCode = 0;
      return;
    }
    // Loaded here, not above: the --auto exporter a hook starts never loads the output of the commands people read.
    const [{ loadOtelSettings }, { runOtelExport }, { formatExportReport }, { printHuman }, { withProgress }] = await Promise.all([
      import("../otel/config.ts"),
      import("../otel/export.ts"),
      import("../otel/format.ts"),
      import("../human/output.ts"),
      import("../human/progress.ts"),
    ]);
    const root = userRoot(args.dir);
    const dryRun = args["dry-run"] === true;
    const report = await withProgress("OpenTelemetry export", (step) => {
      step(dryRun ? "reading the events not sent yet" : "sending the events not sent yet");
      return runOtelExport({ root, settings: loadOtelSettings(), dryRun, auto: false });
    });
    if (report.problems && !args.json) {
      throw new CommandError(`the OpenTelemetry settings are not valid: ${report.problems.join("; ")}`, { hint: `Fix the "otel" section of ${userConfigPath()} or the OTEL_* variables, then check with: aioson otel:export --dry-run` });
    }
    if (args.json) printJson(report);
    else printHuman(formatExportReport(report));
    process.exitCode = report.ok ? 0 : 1;
  },
});
