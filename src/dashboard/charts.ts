/**
 * The data behind the charts: events per time bucket and per agent (or session), and test runs over time. The page
 * draws them as hand-made SVG (no charting library: two small chart kinds, no dependency to audit, nothing that
 * needs inline styles or `eval` under the page's Content-Security-Policy).
 */
import type { Database } from "bun:sqlite";
import { parseJsonObject } from "../store/records.ts";
import type { ActivityChart, ChartsResponse, TestPoint } from "./api.ts";
import type { EventRow } from "./events.ts";
import { RECENT_WINDOW, SQL, agentLabel } from "./queries.ts";

const MINUTE = 60_000;
/** Bucket sizes a person reads easily; the smallest that keeps the chart within MAX_BUCKETS is used. */
const BUCKETS = [MINUTE, 5 * MINUTE, 15 * MINUTE, 60 * MINUTE, 3 * 60 * MINUTE, 6 * 60 * MINUTE, 24 * 60 * MINUTE, 7 * 24 * 60 * MINUTE, 30 * 24 * 60 * MINUTE];
const MAX_BUCKETS = 60;
const MAX_SERIES = 6;
const TESTS_SHOWN = 300;

export type TimedPoint = { ts: string; label: string };

/** Counts per bucket for each label (the MAX_SERIES most frequent, the rest as "other"). */
export function activityChart(points: readonly TimedPoint[]): ActivityChart {
  const times = points.map((point) => Date.parse(point.ts));
  const valid = times.filter((t) => Number.isFinite(t));
  if (valid.length === 0) return { start: null, bucketMs: MINUTE, series: [] };
  const min = Math.min(...valid);
  const max = Math.max(...valid);
  const bucketMs = BUCKETS.find((size) => (max - min) / size < MAX_BUCKETS) ?? (BUCKETS.at(-1) as number);
  const start = Math.floor(min / bucketMs) * bucketMs;
  const length = Math.floor((max - start) / bucketMs) + 1;
  const totals = new Map<string, number>();
  for (const point of points) totals.set(point.label, (totals.get(point.label) ?? 0) + 1);
  const top = new Set([...totals].sort((a, b) => b[1] - a[1]).slice(0, MAX_SERIES).map(([label]) => label));
  const series = new Map<string, number[]>();
  points.forEach((point, i) => {
    const at = times[i] as number;
    if (!Number.isFinite(at)) return;
    const label = top.has(point.label) ? point.label : "other";
    let counts = series.get(label);
    if (!counts) series.set(label, (counts = new Array<number>(length).fill(0)));
    const index = Math.floor((at - start) / bucketMs);
    counts[index] = (counts[index] ?? 0) + 1;
  });
  return {
    start: new Date(start).toISOString(),
    bucketMs,
    series: [...series].map(([label, counts]) => ({ label, counts })).sort((a, b) => b.counts.reduce((x, y) => x + y, 0) - a.counts.reduce((x, y) => x + y, 0)),
  };
}

function tests(rows: readonly EventRow[]): TestPoint[] {
  const points: TestPoint[] = [];
  for (const row of rows) {
    const payload = parseJsonObject(row.payload_json);
    const outcome = payload?.outcome;
    if (payload?.test_runner !== true || (outcome !== "passed" && outcome !== "failed")) continue;
    const command = typeof payload.command === "string" ? payload.command : (row.message ?? "").replace(/^\$ /, "");
    points.push({ ts: row.created_at, outcome, command, summary: typeof payload.summary === "string" && payload.summary ? payload.summary : null });
  }
  return points;
}

/** Test runs of a session or project, oldest first, from the newest `step_done` rows given (newest first). */
export function testPoints(rows: readonly EventRow[], max = TESTS_SHOWN): TestPoint[] {
  return tests(rows).slice(0, max).reverse();
}

/** The project's charts: its newest events by agent, and its newest test runs of every agent. */
export function projectCharts(db: Database): ChartsResponse {
  const recent = db.query(SQL.recentTimes).all(RECENT_WINDOW) as Array<{ created_at: string; agent_name: string | null }>;
  const activity = activityChart(recent.map((row) => ({ ts: row.created_at, label: agentLabel(row.agent_name) ?? "standalone" })));
  const agents = (db.query(SQL.agents).all() as Array<{ n: string }>).map((row) => row.n);
  const steps = db.query(SQL.agentTyped);
  const rows = agents.flatMap((agent) => steps.all(agent, "step_done", 2_000) as EventRow[]).sort((a, b) => b.id - a.id);
  return { activity, tests: testPoints(rows) };
}
