/** `runtime:prune`: options and the report a person reads (the work is store/prune.ts). */
import { CommandError } from "../core/output.ts";
import { DEFAULT_RETENTION_DAYS, USAGE_DAYS, type PruneReport } from "../store/prune.ts";
import { durationMs, textOption } from "./args.ts";

const DAY_MS = 86_400_000;

/** `--older-than`, default DEFAULT_RETENTION_DAYS days. */
export function retentionMs(value: unknown): number {
  const text = textOption(value);
  if (text === null) return DEFAULT_RETENTION_DAYS * DAY_MS;
  const ms = durationMs(text);
  if (ms === null) throw new CommandError(`Invalid --older-than: ${text} (use e.g. 30d, 12h, 2w, or a number of days).`);
  return ms;
}

function count(n: number): string {
  return n.toLocaleString("en-US");
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function period(ms: number): string {
  const days = ms / DAY_MS;
  return Number.isInteger(days) ? `${days} day${days === 1 ? "" : "s"}` : `${(ms / 3_600_000).toFixed(1)} hours`;
}

export function formatPruneReport(report: PruneReport, olderThanMs: number): string[] {
  const { removed } = report;
  const verb = report.dryRun ? "Would remove" : "Removed";
  const lines = [
    `${report.dryRun ? "Dry run: nothing written. " : ""}Events older than ${period(olderThanMs)} (before ${report.cutoff}):`,
    `- ${verb} ${count(removed.events)} events (${count(removed.harnessSessions)} harness sessions), ${count(removed.runs)} closed runs, ${count(removed.tasks)} tasks, ${count(removed.agentEvents)} agent_events rows.`,
    `- Kept ${count(report.remaining.events)} events: harness sessions active in the period, what open sessions read, ${USAGE_DAYS} days of context:usage.`,
  ];
  if (!report.complete) lines.push("- Stopped at its limit: run it again to go on.");
  if (report.dryRun) lines.push(`Store: ${mib(report.bytes.before)}.`);
  else if (report.vacuum === "none") {
    lines.push(
      `Store: ${mib(report.bytes.before)} -> ${mib(report.bytes.after)}: the freed pages are reused by new events. This store predates incremental vacuum;`,
      "`aioson runtime:prune --vacuum` once, while no agent is working, gives them back to the disk (it rewrites the file).",
    );
  } else lines.push(`Store: ${mib(report.bytes.before)} -> ${mib(report.bytes.after)} (${report.vacuum === "full" ? "VACUUM" : "incremental vacuum"}).`);
  return lines;
}
