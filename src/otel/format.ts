/** The human lines of `otel:export` (spec 0.3: stdout, one line each). */
import { userConfigPath } from "../core/user-config.ts";
import type { ExportReport, PreviewReport, SignalReport } from "./export.ts";

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function itemName(signal: string): string {
  return signal === "traces" ? "span" : "log record";
}

function signalLine(report: SignalReport): string {
  const head = `${report.signal} → ${report.endpoint} (${report.protocol}):`;
  const sent = `sent ${plural(report.sent, itemName(report.signal))} for ${plural(report.events, "event")} in ${plural(report.batches, "request")}`;
  const parts = [report.events === 0 && report.stopped === undefined ? "nothing new to send" : sent];
  if (report.rejected > 0) parts.push(`${report.rejected} rejected by the collector`);
  if (report.stopped === "failed") parts.push(`stopped: ${report.error ?? "failed"}; ${plural(report.pending, "event")} left, retried automatically after ${report.retryAt}`);
  if (report.stopped === "backoff") parts.push(`waiting until ${report.retryAt} after an earlier failure`);
  if (report.stopped === "budget") parts.push(`${plural(report.pending, "event")} left for the next run`);
  if (report.stopped === "busy") parts.push("another export took over");
  return `${head} ${parts.join("; ")}`;
}

function previewLine(report: PreviewReport): string {
  return `${report.signal} → ${report.endpoint} (${report.protocol}): ${plural(report.pending, "event")} not sent yet; the first request would carry ${plural(report.items, itemName(report.signal))} for ${plural(report.events, "event")}`;
}

export function formatExportReport(report: ExportReport): string[] {
  if (report.disabled) return [`OpenTelemetry export disabled (${report.disabled}).`];
  if (!report.configured && !report.dryRun) {
    return [`OpenTelemetry export is not configured: set OTEL_EXPORTER_OTLP_ENDPOINT, or "otel": {"endpoint": "..."} in ${userConfigPath()}.`];
  }
  if (report.skipped === "no-store") return ["Nothing recorded in this project yet (no store): nothing to send."];
  if (report.skipped === "busy") return ["Another export of this project is running; it sends these events too."];
  const lines = report.dryRun ? [`Dry run (content: ${report.content}); nothing sent.`, ...(report.preview ?? []).map(previewLine)] : report.signals.map(signalLine);
  return lines;
}
