/**
 * Hand-made SVG charts: stacked bars of activity per agent or session over time, a strip of test runs, and a
 * sparkline. Colours come from CSS classes (`series-0`...), so the page needs no inline style.
 */
import type { ActivityChart, TestPoint } from "../api.ts";
import { h, s, time } from "./dom.ts";

/** Drawing units: the SVGs stretch to their box (preserveAspectRatio none), so they hold no text. */
const WIDTH = 600;
const HEIGHT = 120;
/** A chart of one or two buckets still reads as time: it spans at least this many. */
const MIN_SLOTS = 24;

function span(ms: number): string {
  const minutes = ms / 60_000;
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 1440) return `${minutes / 60} h`;
  return `${minutes / 1440} d`;
}

export function activityBars(chart: ActivityChart): HTMLElement {
  const length = Math.max(0, ...chart.series.map((series) => series.counts.length));
  if (!chart.start || length === 0) return h("p", { class: "empty" }, "No activity recorded.");
  const totals = Array.from({ length }, (_, i) => chart.series.reduce((sum, series) => sum + (series.counts[i] ?? 0), 0));
  const max = Math.max(1, ...totals);
  const slots = Math.max(length, MIN_SLOTS);
  const slot = WIDTH / slots;
  const bar = Math.max(1, slot * 0.78);
  const plot = HEIGHT - 1;
  const start = Date.parse(chart.start);
  const svg = s("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, preserveAspectRatio: "none", class: "chart bars", role: "img", "aria-label": "Activity over time" });
  for (let i = 0; i < length; i++) {
    let y = plot;
    const from = new Date(start + i * chart.bucketMs).toISOString();
    chart.series.forEach((series, index) => {
      const n = series.counts[i] ?? 0;
      if (n === 0) return;
      const height = Math.max(1, (n / max) * (plot - 4));
      y -= height;
      svg.appendChild(
        s("rect", { x: (i * slot + (slot - bar) / 2).toFixed(1), y: y.toFixed(1), width: bar.toFixed(1), height: height.toFixed(1), class: `series-${index % 7}` },
          s("title", {}, `${series.label}: ${n} event(s) from ${time(from)}`)),
      );
    });
  }
  svg.appendChild(s("line", { x1: 0, y1: plot + 0.5, x2: WIDTH, y2: plot + 0.5, class: "axis" }));
  const axis = h("div", { class: "axis-row" }, h("span", null, time(chart.start)), h("span", null, `bars of ${span(chart.bucketMs)} · highest ${max}`), h("span", null, time(new Date(start + slots * chart.bucketMs).toISOString())));
  const legend = h(
    "ul",
    { class: "legend" },
    ...chart.series.map((series, index) =>
      h("li", null, h("span", { class: `swatch series-${index % 7}` }), series.label, h("span", { class: "muted" }, ` ${series.counts.reduce((a, b) => a + b, 0)}`)),
    ),
  );
  return h("div", { class: "chart-box" }, svg, axis, legend);
}

export function testStrip(tests: readonly TestPoint[]): HTMLElement {
  if (tests.length === 0) return h("p", { class: "empty" }, "No test run recorded.");
  const cell = WIDTH / Math.max(tests.length, 40);
  const svg = s("svg", { viewBox: `0 0 ${WIDTH} 44`, preserveAspectRatio: "none", class: "chart strip", role: "img", "aria-label": "Test runs over time" });
  tests.forEach((test, i) => {
    svg.appendChild(
      s("rect", { x: (i * cell + 0.5).toFixed(1), y: test.outcome === "passed" ? 6 : 2, width: Math.max(1, cell - 1.5).toFixed(1), height: test.outcome === "passed" ? 32 : 40, rx: 1.5, class: test.outcome },
        s("title", {}, `${test.outcome} — $ ${test.command}${test.summary ? ` — ${test.summary}` : ""} (${time(test.ts)})`)),
    );
  });
  const passed = tests.filter((t) => t.outcome === "passed").length;
  const last = tests.at(-1) as TestPoint;
  return h(
    "div",
    { class: "chart-box" },
    svg,
    h("p", { class: "chart-note" }, `${passed} of ${tests.length} runs passed (${Math.round((passed / tests.length) * 100)} %) · last `, h("span", { class: `verdict ${last.outcome}` }, last.outcome), ` ${time(last.ts)}`),
  );
}

export function sparkline(counts: readonly number[]): SVGElement {
  const max = Math.max(1, ...counts);
  const width = 120;
  const slot = width / Math.max(1, counts.length);
  const svg = s("svg", { viewBox: `0 0 ${width} 28`, class: "spark", "aria-hidden": "true" });
  counts.forEach((n, i) => {
    const height = n === 0 ? 1 : Math.max(2, (n / max) * 26);
    svg.appendChild(s("rect", { x: (i * slot).toFixed(1), y: (28 - height).toFixed(1), width: Math.max(1, slot - 1).toFixed(1), height: height.toFixed(1), class: n === 0 ? "idle" : "busy" }));
  });
  return svg;
}
