import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Database } from "bun:sqlite";
import { isInside } from "../core/project-root.ts";
import { readProjectFile } from "../core/project-fs.ts";
import { enforce } from "../guard/enforce.ts";
import type { JudgedKind } from "../guard/kinds.ts";
import { JSON_READ_MAX, TEXT_READ_MAX, within } from "../store/bounded.ts";
import { lf } from "../guard/pending.ts";
import { parseJsonObject } from "../store/records.ts";

/** Spec 7.2: were the violations the guard injected fixed, or are they still in the files? */

export type GuardRuleUsage = { path: string; injections: number; with_violations: number; fixed: number; still_present: number; file_gone: number };

export type GuardUsage = {
  available: boolean;
  since_days: number;
  totals: { injections: number; violations_fixed: number; violations_still_present: number; violations_file_gone: number };
  rules: GuardRuleUsage[];
};

type Group = { file: string; agent: string; kind: JudgedKind; entries: Set<string> };

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

function ruleOf(usage: Map<string, GuardRuleUsage>, path: string): GuardRuleUsage {
  let rule = usage.get(path);
  if (!rule) usage.set(path, (rule = { path, injections: 0, with_violations: 0, fixed: 0, still_present: 0, file_gone: 0 }));
  return rule;
}

export function emptyGuardUsage(sinceDays: number, available: boolean): GuardUsage {
  return { available, since_days: sinceDays, totals: { injections: 0, violations_fixed: 0, violations_still_present: 0, violations_file_gone: 0 }, rules: [] };
}

/** The same bound as the file the guard reads before a write (spec 6.9). */
const RECHECK_MAX_BYTES = 4 * 1024 * 1024;

/** Present violations as `<owner rule>|<diffKey>`, from §6.9 run on the file as it is now; null when the file is gone. */
function presentNow(root: string, group: Group): Set<string> | null {
  const abs = join(root, ...group.file.split("/"));
  if (!isInside(root, abs) || !existsSync(abs)) return null;
  // A regular file only: a FIFO there would hang the report.
  const read = readProjectFile(root, abs, RECHECK_MAX_BYTES);
  if (read.kind !== "ok") return null;
  const text = lf(read.text);
  const blocks = enforce({ root, rel: group.file, kind: group.kind, before: null, after: text, agent: group.agent, recheck: true });
  return new Set(blocks.flatMap((block) => block.keys.map((key) => `${block.owner.rel}|${key}`)));
}

/**
 * `harnessSession` narrows the report to the injections recorded in one harness session (the dashboard's per-session
 * view); without it the whole project is read, as `context:usage` does.
 */
export function guardUsage(root: string, db: Database, sinceDays: number, now = Date.now(), harnessSession: string | null = null): GuardUsage {
  const since = new Date(now - sinceDays * 86_400_000).toISOString();
  const session = harnessSession === null ? "" : "AND harness_session_id = ?";
  const rows = db
    .query(
      `SELECT ${within("agent_name", TEXT_READ_MAX)} AS agent_name, ${within("payload_json", JSON_READ_MAX)} AS payload_json FROM execution_events
       WHERE source = 'context_guard' AND event_type = 'guard_injected' AND created_at >= ? ${session}
       ORDER BY created_at, id`,
    )
    .all(...(harnessSession === null ? [since] : [since, harnessSession])) as Array<{ agent_name: string | null; payload_json: string | null }>;
  const usage = new Map<string, GuardRuleUsage>();
  const groups = new Map<string, Group>();
  for (const row of rows) {
    const payload = parseJsonObject(row.payload_json) ?? {};
    for (const path of new Set(strings(payload.rules))) ruleOf(usage, path).injections += 1;
    const file = typeof payload.file === "string" ? payload.file : "";
    const agent = (row.agent_name ?? "").replace(/^@/, "") || "dev";
    for (const violation of Array.isArray(payload.violations) ? payload.violations : []) {
      const entry = violation as Record<string, unknown>;
      const keys = strings(entry.keys);
      const rule = typeof entry.rule === "string" ? entry.rule : "";
      const kind: JudgedKind = entry.kind === "markdown" ? "markdown" : "code";
      if (keys.length === 0 || !rule || !file) continue;
      ruleOf(usage, rule).with_violations += 1;
      const id = `${file}\u0000${agent}\u0000${kind}`;
      let group = groups.get(id);
      if (!group) groups.set(id, (group = { file, agent, kind, entries: new Set() }));
      for (const key of keys) group.entries.add(`${rule}|${key}`);
    }
  }
  const totals = { injections: rows.length, violations_fixed: 0, violations_still_present: 0, violations_file_gone: 0 };
  for (const group of groups.values()) {
    const present = presentNow(root, group);
    for (const entry of group.entries) {
      const rule = ruleOf(usage, entry.slice(0, entry.indexOf("|")));
      if (present === null) {
        rule.file_gone += 1;
        totals.violations_file_gone += 1;
      } else if (present.has(entry)) {
        rule.still_present += 1;
        totals.violations_still_present += 1;
      } else {
        rule.fixed += 1;
        totals.violations_fixed += 1;
      }
    }
  }
  const rules = [...usage.values()].sort((a, b) => b.injections - a.injections || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { available: true, since_days: sinceDays, totals, rules };
}

/** Spec 7.3 guard section lines (none when nothing was injected in the window). */
export function guardUsageLines(guard: GuardUsage): string[] {
  const { totals } = guard;
  if (totals.injections === 0) return [];
  const noun = totals.injections === 1 ? "injection" : "injections";
  const lines = [
    `Guard at write time: ${totals.injections} ${noun} — measured violations fixed ${totals.violations_fixed}, still present ${totals.violations_still_present}, file gone ${totals.violations_file_gone}.`,
  ];
  for (const rule of guard.rules) {
    const gone = rule.file_gone > 0 ? ` / file gone ${rule.file_gone}` : "";
    lines.push(`- ${rule.path}: injected ${rule.injections} · violations fixed ${rule.fixed} / still present ${rule.still_present}${gone}`);
  }
  return lines;
}
