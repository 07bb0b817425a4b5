/** `runtime:prune`: the retention settings, the options and the report a person reads (the work is store/prune.ts). */
import * as v from "valibot";
import { CommandError } from "../core/output.ts";
import { userConfigSection } from "../core/user-config.ts";
import { DAY_MS, DEFAULT_RETENTION_DAYS, USAGE_DAYS, type PruneReport } from "../store/prune.ts";
import { durationMs, textOption } from "./args.ts";


/**
 * The `retention` section of the user config: `{"retention": {"days": 90, "auto": false}}`. `days` is the default
 * of `--older-than` and of the automatic prune; `auto: false` turns the automatic prune off. The user's own file
 * (core/user-config.ts): how long a project's history is kept is the person's choice.
 */
const RetentionSchema = v.strictObject({
  days: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(36_500))),
  auto: v.optional(v.boolean()),
});

export type Retention = { days: number; auto: boolean };

/** The retention settings, or what is wrong with the section (then nothing is pruned automatically). */
export function retentionSettings(env: Readonly<Record<string, string | undefined>>): { ok: true; retention: Retention } | { ok: false; problem: string } {
  const section = userConfigSection("retention", env);
  if (section === undefined) return { ok: true, retention: { days: DEFAULT_RETENTION_DAYS, auto: true } };
  const parsed = v.safeParse(RetentionSchema, section);
  if (!parsed.success) return { ok: false, problem: `user config "retention": ${v.summarize(parsed.issues).replaceAll("\n", "; ")}` };
  return { ok: true, retention: { days: parsed.output.days ?? DEFAULT_RETENTION_DAYS, auto: parsed.output.auto ?? true } };
}

/** `--older-than`, default the user's retention days (DEFAULT_RETENTION_DAYS). */
export function retentionMs(value: unknown, env: Readonly<Record<string, string | undefined>> = process.env): number {
  const text = textOption(value);
  if (text === null) {
    const settings = retentionSettings(env);
    if (!settings.ok) throw new CommandError(settings.problem);
    return settings.retention.days * DAY_MS;
  }
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
