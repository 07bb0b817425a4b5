/**
 * `otel:export`: sends the events not yet sent to each configured destination (docs/team-export.md).
 *
 * Delivery is at least once: per destination and signal a cursor in the store moves past a batch only once the
 * collector took it (or answered that it never will: 400, or a partial success, which OTLP forbids retrying), and
 * a resend carries the same ids (mapping.ts). One export per project runs at a time (an expiring lease in the
 * store). Everything is bounded: BATCH_ROWS events and BODY_MAX_BYTES per request, a few attempts per batch with
 * backoff (a longer Retry-After, or a failed run, sets a backoff the automatic exporter respects), and a time budget
 * per run. A collector that is down, slow or hostile costs this background process some waiting, never a hook.
 */
import type { Database } from "bun:sqlite";
import { arch, hostname, platform } from "node:os";
import { basename } from "node:path";
import { logHookProblem } from "../core/hook-log.ts";
import { isoNow } from "../core/time.ts";
import { VERSION } from "../core/version.ts";
import { closeStore, openStore, withStoreTransaction, type Store } from "../store/db.ts";
import { MAX_RETRY_WAIT_MS, printableUrl, SIGNALS, type ContentLevel, type OtelConfig, type OtelSettings, type Protocol, type Signal, type SignalTarget } from "./config.ts";
import type * as Codec from "./encode.ts";
import { logsOf, spansOf, type LogItem, type MapContext, type SpanItem } from "./mapping.ts";
import { countRowsAfter, hasRowsAfter, readRowsAfter, type EventRow } from "./rows.ts";
import { destinationKey, existingStoreId, LEASE_TTL_MS, leaseHeld, newLeaseOwner, readCursor, releaseLease, saveFailure, saveProgress, storeId, takeLease, type Cursor } from "./state.ts";
import { MAX_BACKOFF_MS, setExportWait } from "./wait-file.ts";
import { sendOtlp, type SendResult } from "./transport.ts";

const COMMAND = "otel:export";
/** Events per request (the OpenTelemetry SDK's default batch is 512 spans; ours carry more attributes). */
export const BATCH_ROWS = 256;
/** A request body never grows past this: a larger batch is split before it is sent. */
const BODY_MAX_BYTES = 4 * 1024 * 1024;
const ATTEMPTS = 4;
const RETRY_BASE_MS = 250;
/** After a failed run the automatic exporter waits 5 s, 10 s, 20 s ... up to 10 minutes before trying again. */
const FAILED_RUN_BACKOFF_MS = 5_000;
const FAILED_RUN_BACKOFF_MAX_MS = 10 * 60_000;
/** One run gives up (and leaves the rest for the next one) after this long. */
const RUN_BUDGET_MS = 120_000;
/** An automatic run looks again for events recorded while it was sending, this many times. */
const AUTO_ROUNDS = 5;

export type ExportOptions = { root: string; settings: OtelSettings; dryRun: boolean; auto: boolean };

/**
 * Why a signal's run ended before the end of the store: `failed` (the collector did not take a batch; the cursor
 * stays and `retryAt` says when the automatic exporter tries again), `backoff` (an automatic run found such a
 * wait not over yet), `budget` (the run's time is up; the next one continues), `busy` (another export took over).
 */
export type Stop = "failed" | "backoff" | "budget" | "busy";

export type SignalReport = {
  signal: Signal;
  endpoint: string;
  protocol: string;
  /** Spans or log records the collector took. */
  sent: number;
  /** Recorded events the cursor moved past. */
  events: number;
  batches: number;
  /** Items the collector refused (partial success, or a 400 for a whole batch): never resent. */
  rejected: number;
  cursor: number;
  /** Recorded events after the cursor when the run ended. */
  pending: number;
  stopped?: Stop;
  error?: string;
  retryAt?: string;
};

export type PreviewReport = {
  signal: Signal;
  endpoint: string;
  protocol: string;
  cursor: number;
  pending: number;
  /** Events in the first batch, and the spans or log records they make. */
  events: number;
  items: number;
  /** The OTLP/JSON request of the first batch. */
  request: unknown;
};

export type ExportReport = {
  ok: boolean;
  configured: boolean;
  dryRun: boolean;
  content: ContentLevel;
  signals: SignalReport[];
  preview?: PreviewReport[];
  disabled?: string;
  problems?: string[];
  /** `busy`: another export holds the lease; `no-store`: the project has recorded nothing. */
  skipped?: "busy" | "no-store";
};

type Run = {
  root: string;
  store: Store;
  auto: boolean;
  owner: string;
  map: MapContext;
  /** encode.ts (the OpenTelemetry serializers), loaded only once there is something to encode. */
  codec: typeof Codec;
  enc: Codec.Encoder;
  deadline: number;
};

function resourceAttributes(config: OtelConfig, root: string, id: string): Record<string, string> {
  const os = platform();
  return {
    "service.version": VERSION,
    "host.name": hostname(),
    "host.arch": arch() === "x64" ? "amd64" : arch(),
    "os.type": os === "win32" ? "windows" : os,
    "aioson.project.name": basename(root),
    "aioson.project.id": id,
    ...config.resourceAttributes,
    "service.name": config.serviceName,
  };
}

async function runOf(root: string, store: Store, config: OtelConfig, auto: boolean, owner: string, id: string, deadline: number): Promise<Run> {
  const codec = await import("./encode.ts");
  const enc = codec.encoder(resourceAttributes(config, root, id), { name: "aioson", version: VERSION });
  return { root, store, auto, owner, map: { storeId: id, content: config.content }, codec, enc, deadline };
}

function transaction<T>(store: Store, work: (db: Database) => T): T {
  return withStoreTransaction(store, () => work(store.db));
}

function retryDelay(attempt: number): number {
  return Math.round(RETRY_BASE_MS * 2 ** attempt * (0.8 + Math.random() * 0.4));
}

type Delivery = SendResult | { kind: "gave_up"; reason: string; afterMs: number | null } | { kind: "lease_lost" };

/** One batch, with retries; the lease is renewed before every attempt, so it never lapses while we work. */
async function deliver(run: Run, signal: Signal, target: SignalTarget, body: Uint8Array): Promise<Delivery> {
  for (let attempt = 0; ; attempt++) {
    if (!transaction(run.store, (db) => takeLease(db, run.owner, Date.now()))) return { kind: "lease_lost" };
    const result = await sendOtlp(target, body);
    if (result.kind !== "retry") return result;
    const wait = result.afterMs ?? retryDelay(attempt);
    if (attempt + 1 >= ATTEMPTS || wait > MAX_RETRY_WAIT_MS || Date.now() + wait > run.deadline) return { kind: "gave_up", reason: result.reason, afterMs: result.afterMs };
    await Bun.sleep(wait);
  }
}

type Items = { signal: "traces"; items: SpanItem[] } | { signal: "logs"; items: LogItem[] };

function itemsOf(run: Run, signal: Signal, rows: readonly EventRow[]): Items {
  return signal === "traces" ? { signal, items: spansOf(run.map, rows) } : { signal, items: logsOf(run.map, rows) };
}

function encodeItems(run: Run, protocol: Protocol, batch: Items): Uint8Array {
  return batch.signal === "traces" ? run.codec.encodeSpans(run.enc, protocol, batch.items) : run.codec.encodeLogs(run.enc, protocol, batch.items, Date.now());
}

function failedRunRetryAt(cursor: Cursor, afterMs: number | null): number {
  const backoff = Math.min(FAILED_RUN_BACKOFF_MS * 2 ** cursor.failures, FAILED_RUN_BACKOFF_MAX_MS);
  return Date.now() + Math.min(Math.max(backoff, afterMs ?? 0), MAX_BACKOFF_MS);
}

/** Sends one signal until its cursor reaches the end of the store, the budget runs out or the collector fails. */
async function exportSignal(run: Run, signal: Signal, target: SignalTarget): Promise<SignalReport> {
  const destination = destinationKey(target.url);
  let cursor = readCursor(run.store.db, destination, signal, Date.now());
  const report: SignalReport = { signal, endpoint: printableUrl(target.url), protocol: target.protocol, sent: 0, events: 0, batches: 0, rejected: 0, cursor: cursor.lastEventId, pending: 0 };
  if (run.auto && cursor.retryAt !== null && cursor.retryAt > Date.now()) {
    report.stopped = "backoff";
    report.retryAt = new Date(cursor.retryAt).toISOString();
  }
  let limit = BATCH_ROWS;
  while (report.stopped === undefined) {
    if (Date.now() > run.deadline) {
      report.stopped = "budget";
      break;
    }
    const batch = readRowsAfter(run.store.db, cursor.lastEventId, limit);
    if (!batch) break;
    const mapped = itemsOf(run, signal, batch.rows);
    const count = mapped.items.length;
    let outcome: Delivery | null = null;
    if (count > 0) {
      const body = encodeItems(run, target.protocol, mapped);
      if (body.length > BODY_MAX_BYTES && limit > 1) {
        limit = Math.ceil(limit / 2);
        continue;
      }
      outcome = await deliver(run, signal, target, body);
      if (outcome.kind === "too_large" && limit > 1) {
        limit = Math.ceil(limit / 2);
        continue;
      }
    }
    const at = isoNow();
    if (outcome === null || outcome.kind === "delivered" || outcome.kind === "rejected" || outcome.kind === "too_large") {
      transaction(run.store, (db) => saveProgress(db, destination, signal, batch.lastId, at));
      cursor = { lastEventId: batch.lastId, failures: 0, retryAt: null };
      report.events += batch.read;
      if (outcome === null) continue;
      report.batches += 1;
      if (outcome.kind === "delivered") {
        const partial = run.codec.readPartialSuccess(signal, target.protocol, outcome.answer);
        const refused = Math.min(count, partial.rejected);
        report.sent += count - refused;
        report.rejected += refused;
        if (refused > 0 || partial.message) logHookProblem(run.root, COMMAND, `${signal}: the collector rejected ${refused} of ${count}${partial.message ? `: ${partial.message}` : ""}`);
      } else {
        report.rejected += count;
        logHookProblem(run.root, COMMAND, `${signal}: the collector refused a batch of ${count} for good (${outcome.reason}); it is not sent again`);
      }
      continue;
    }
    if (outcome.kind === "lease_lost") {
      report.stopped = "busy";
      break;
    }
    const retryAt = failedRunRetryAt(cursor, outcome.kind === "gave_up" ? outcome.afterMs : null);
    transaction(run.store, (db) => saveFailure(db, destination, signal, cursor, retryAt, at));
    report.stopped = "failed";
    report.error = outcome.reason;
    report.retryAt = new Date(retryAt).toISOString();
    logHookProblem(run.root, COMMAND, `${signal} to ${report.endpoint}: ${outcome.reason}; the next automatic export waits until ${report.retryAt}`);
  }
  report.cursor = cursor.lastEventId;
  report.pending = countRowsAfter(run.store.db, cursor.lastEventId);
  return report;
}

function targets(config: OtelConfig): Array<[Signal, SignalTarget]> {
  return SIGNALS.flatMap((signal): Array<[Signal, SignalTarget]> => {
    const target = config[signal];
    return target ? [[signal, target]] : [];
  });
}

/** Adds a later round's figures to the first round's reports. */
function addRound(into: SignalReport[], reports: readonly SignalReport[]): void {
  for (const report of reports) {
    const earlier = into.find((item) => item.signal === report.signal);
    if (!earlier) {
      into.push(report);
      continue;
    }
    Object.assign(earlier, {
      ...report,
      sent: earlier.sent + report.sent,
      events: earlier.events + report.events,
      batches: earlier.batches + report.batches,
      rejected: earlier.rejected + report.rejected,
    });
  }
}

/**
 * Whether an automatic run has anything to do: a signal not waiting out a backoff with events after its cursor, and
 * no other exporter at work. Reads only, so the exporters a busy project's hooks start mostly leave without taking
 * the store's write lock from those hooks.
 */
function autoWork(store: Store, config: OtelConfig, owner: string): boolean {
  const now = Date.now();
  if (leaseHeld(store.db, owner, now)) return false;
  return targets(config).some(([signal, target]) => {
    const cursor = readCursor(store.db, destinationKey(target.url), signal, now);
    return (cursor.retryAt === null || cursor.retryAt <= now) && hasRowsAfter(store.db, cursor.lastEventId);
  });
}

/**
 * When the hooks need to start an exporter again: once the backoffs of the destinations that have events to send are
 * over (0: right away; a destination with nothing to send waits for the others, a turn later at most a backoff).
 */
function waitAfter(store: Store, config: OtelConfig): number {
  const now = Date.now();
  const waits: number[] = [];
  for (const [signal, target] of targets(config)) {
    const cursor = readCursor(store.db, destinationKey(target.url), signal, now);
    if (!hasRowsAfter(store.db, cursor.lastEventId)) continue;
    if (cursor.retryAt === null || cursor.retryAt <= now) return 0;
    waits.push(cursor.retryAt);
  }
  return waits.length > 0 ? Math.min(...waits) : 0;
}

async function send(root: string, store: Store, config: OtelConfig, auto: boolean): Promise<ExportReport> {
  const owner = newLeaseOwner();
  const report: ExportReport = { ok: true, configured: true, dryRun: false, content: config.content, signals: [] };
  if (auto && !autoWork(store, config, owner)) {
    const wait = leaseHeld(store.db, owner, Date.now()) ? 0 : waitAfter(store, config);
    if (wait > 0) setExportWait(root, wait);
    return report;
  }
  const deadline = Date.now() + RUN_BUDGET_MS;
  for (let round = 0; round < (auto ? AUTO_ROUNDS : 1); round++) {
    if (!transaction(store, (db) => takeLease(db, owner, Date.now()))) {
      if (round === 0) report.skipped = "busy";
      break;
    }
    // While this export works, hooks start no other (the lease would send it away anyway).
    setExportWait(root, Date.now() + LEASE_TTL_MS);
    const reports: SignalReport[] = [];
    try {
      const run = await runOf(root, store, config, auto, owner, existingStoreId(store.db) ?? transaction(store, (db) => storeId(db)), deadline);
      for (const [signal, target] of targets(config)) reports.push(await exportSignal(run, signal, target));
    } finally {
      transaction(store, (db) => releaseLease(db, owner));
      setExportWait(root, waitAfter(store, config));
    }
    addRound(report.signals, reports);
    if (Date.now() > deadline || reports.some((item) => item.stopped === "failed" || item.stopped === "busy")) break;
    // Looked at only now that the hooks may start an exporter again: a hook that skipped it meanwhile left its events
    // to this one, which sends them in another round.
    if (!auto || !autoWork(store, config, owner)) break;
  }
  report.ok = report.signals.every((item) => item.stopped !== "failed");
  return report;
}

/** A dry run: what the next export would send, without sending, taking the lease, or writing anything. */
async function preview(root: string, store: Store, config: OtelConfig, configured: boolean): Promise<ExportReport> {
  // Before the first export the store has no id yet: the ids shown are then not the ones that will be sent.
  const run = await runOf(root, store, config, false, "", existingStoreId(store.db) ?? "0".repeat(31) + "1", 0);
  const reports = SIGNALS.flatMap((signal): PreviewReport[] => {
    const target = config[signal];
    if (!target && configured) return [];
    const cursor = target ? readCursor(store.db, destinationKey(target.url), signal, Date.now()) : { lastEventId: 0 };
    const batch = readRowsAfter(store.db, cursor.lastEventId, BATCH_ROWS);
    const mapped = itemsOf(run, signal, batch?.rows ?? []);
    return [{
      signal,
      endpoint: target ? printableUrl(target.url) : "(not configured)",
      protocol: target?.protocol ?? "http/protobuf",
      cursor: cursor.lastEventId,
      pending: countRowsAfter(store.db, cursor.lastEventId),
      events: batch?.read ?? 0,
      items: mapped.items.length,
      request: mapped.items.length > 0 ? JSON.parse(new TextDecoder().decode(encodeItems(run, "http/json", mapped))) : null,
    }];
  });
  return { ok: true, configured, dryRun: true, content: config.content, signals: [], preview: reports };
}

export async function runOtelExport(options: ExportOptions): Promise<ExportReport> {
  const { settings } = options;
  if (settings.kind === "disabled") return { ok: true, configured: false, dryRun: options.dryRun, content: "off", signals: [], disabled: settings.reason };
  if (settings.kind === "invalid") return { ok: false, configured: false, dryRun: options.dryRun, content: "off", signals: [], problems: settings.problems };
  const configured = settings.kind === "ok";
  if (!configured && !options.dryRun) return { ok: true, configured: false, dryRun: false, content: settings.config.content, signals: [] };
  // A project without a store has recorded nothing; no store is created for an export.
  const store = openStore(options.root, { mustExist: true });
  if (!store) return { ok: true, configured, dryRun: options.dryRun, content: settings.config.content, signals: [], skipped: "no-store" };
  try {
    if (options.dryRun) return await preview(options.root, store, settings.config, configured);
    return await send(options.root, store, settings.config, options.auto);
  } finally {
    closeStore(store);
  }
}
