/**
 * `otel:export --auto`, the exporter a Stop/SessionEnd hook leaves behind (trigger.ts). It first steps aside: a
 * lower priority, then a short settle, so that the other hooks of the same turn end (a harness runs its Stop hooks
 * together) run before it reads the store; only then are the settings and the export code loaded. It never prints
 * and never fails: what went wrong goes to the project's hook log.
 */
import { lowerPriority } from "../core/priority.ts";
import { logHookProblem } from "../core/hook-log.ts";

const COMMAND = "otel:export";
/** Long enough for a turn's other end-of-turn hooks, short enough that a dashboard shows the turn at once. */
const SETTLE_MS = 500;

export async function runAutoExport(root: string): Promise<void> {
  lowerPriority();
  await Bun.sleep(SETTLE_MS);
  try {
    const [{ loadOtelSettings }, { runOtelExport }] = await Promise.all([import("./config.ts"), import("./export.ts")]);
    const report = await runOtelExport({ root, settings: loadOtelSettings(), dryRun: false, auto: true });
    if (report.problems) logHookProblem(root, COMMAND, `not exported: ${report.problems.join("; ")}`);
  } catch (error) {
    logHookProblem(root, COMMAND, error);
  }
}
