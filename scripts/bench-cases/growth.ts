/**
 * Months of use (issue 16): every command a hook or a person runs, against stores of 0, 10k, 100k and 1M events
 * (scripts/growth-store.ts: one long hooks session of thousands of harness sessions, two harness sessions of a tenth
 * of the events each, one compacting every 150 events and one that compacted only near its start, cached under
 * dist/bench/growth/ and copied for each run). The cases of one size share one copy. bench.ts prints the curve (x
 * floor and peak RSS by size) after the table.
 *
 * Targets at every size (issue 16 sets them at 1M): hooks:emit <= 2.2x, hooks:recap (an ordinary session and the
 * tenth-of-the-store session) <= 3x, context:guard --agent=auto <= 3x, runtime:status and live:status <= 3x,
 * session:guard --once <= 2.5x (its small-store target), peak RSS <= 64 MiB for each. hooks:recap of the session
 * whose window since the previous compaction holds a tenth of the store (100k events at 1M: a long session in a
 * 1M-token context) <= 6x (issue 23: the 50 ms users give a hook), for one that repeats a few commands over a few
 * hundred files and for one that runs mostly unique commands (a fifth failing) over thousands of files.
 */
import { rmSync } from "node:fs";
import { claudeWrite } from "./emit.ts";
import { setup as guardRules, writeEvent } from "./guard.ts";
import type { BenchCase } from "./types.ts";
import { growthProject } from "../growth-store.ts";

const SIZES: ReadonlyArray<[events: number, label: string]> = [
  [0, "0"],
  [10_000, "10k"],
  [100_000, "100k"],
  [1_000_000, "1M"],
];

/** Harness sessions every store of 10k events or more holds (scripts/big-store.ts names them). */
const ORDINARY_SESSION = "claude-0000";
const BIG_SESSION = "claude-big-session";
const WINDOW_SESSION = "claude-window-session";
const UNIQUE_WINDOW_SESSION = "claude-unique-window";
const RSS_MIB = 64;

function compactStart(session: string): string {
  return JSON.stringify({ session_id: session, hook_event_name: "SessionStart", source: "compact", cwd: "." });
}

/** Copies the cached project of `events` into the case's folder, with the 20 rules of the context:guard case. */
function prepare(events: number): (project: string) => void {
  return (project) => {
    rmSync(project, { recursive: true, force: true });
    const made = growthProject(events, project);
    if (made.buildMs !== null) console.log(`growth: built the ${events}-event project in ${(made.buildMs / 1000).toFixed(1)} s (cached under dist/bench/growth/)`);
    guardRules(20)(project);
  };
}

function casesOf(events: number, label: string): BenchCase[] {
  const common = { shared: `growth-${events}`, setup: prepare(events), maxRssMiB: RSS_MIB };
  const point = (series: string) => ({ curve: { series, size: label } });
  const recap = ["hooks:recap", "{project}", "--agent=dev", "--source=claude", "--json"];
  return [
    { ...common, ...point("hooks:emit claude Write"), name: `growth ${label}: hooks:emit claude Write`, args: ["hooks:emit", "{project}", "--agent=dev", "--source=claude"], stdin: claudeWrite("{project}", BIG_SESSION), maxRatio: 2.2 },
    { ...common, ...point("hooks:recap, 300-event session"), name: `growth ${label}: hooks:recap 300-event session`, args: recap, stdin: compactStart(ORDINARY_SESSION), maxRatio: 3 },
    { ...common, ...point("hooks:recap, session of 10% of the store"), name: `growth ${label}: hooks:recap 10% session`, args: recap, stdin: compactStart(BIG_SESSION), maxRatio: 3 },
    { ...common, ...point("hooks:recap, window of 10% of the store"), name: `growth ${label}: hooks:recap 10% window`, args: recap, stdin: compactStart(WINDOW_SESSION), maxRatio: 6 },
    { ...common, ...point("hooks:recap, window of 10% of the store, unique commands"), name: `growth ${label}: hooks:recap 10% window, unique commands`, args: recap, stdin: compactStart(UNIQUE_WINDOW_SESSION), maxRatio: 6 },
    { ...common, ...point("context:guard --agent=auto (20 rules)"), name: `growth ${label}: context:guard --agent=auto`, args: ["context:guard", "{project}", "--tool=claude", "--agent=auto", "--json"], stdin: writeEvent(BIG_SESSION), maxRatio: 3 },
    { ...common, ...point("runtime:status --json"), name: `growth ${label}: runtime:status --json`, args: ["runtime:status", "{project}", "--json"], maxRatio: 3 },
    { ...common, ...point("live:status --agent=dev --json"), name: `growth ${label}: live:status --agent=dev --json`, args: ["live:status", "{project}", "--agent=dev", "--json"], maxRatio: 3 },
    { ...common, ...point("session:guard --once"), name: `growth ${label}: session:guard --once`, args: ["session:guard", "{project}", "--once", "--json"], maxRatio: 2.5 },
  ];
}

const cases: BenchCase[] = SIZES.flatMap(([events, label]) => casesOf(events, label));

export default cases;
