import type { Database } from "bun:sqlite";
import { JSON_READ_MAX, TEXT_READ_MAX, within } from "../store/bounded.ts";
import { parseJsonObject } from "../store/records.ts";
import { oldestFirst, typesSince } from "../store/typed-events.ts";
import { LOAD_SOURCE, SESSION_END_TYPES } from "./window.ts";
import { emptyGuardUsage, guardUsage, guardUsageLines, type GuardUsage } from "./guard-recheck.ts";
import { terminalText } from "../text/terminal.ts";

/** Spec 7: `context:usage` — what briefs offered, what was loaded, and whether guard injections were honoured. */

export type AgentUsage = { agent: string; briefs: number; loads: number; session_ends: number };
export type ArtifactUsage = { path: string; selected: number; loads: number };

export type UsageReport = {
  ok: true;
  store: boolean;
  since_days: number;
  feature: string | null;
  briefs: number;
  loads: number;
  session_ends: number;
  agents: AgentUsage[];
  artifacts: ArtifactUsage[];
  gaps: string[];
  guard: GuardUsage;
};

const MAX_ARTIFACTS = 20;

type Row = { agent_name: string | null; source: string; event_type: string; payload_json: string | null; created_at: string; id: number };

const COLUMNS = `${within("agent_name", TEXT_READ_MAX)} AS agent_name, ${within("source", TEXT_READ_MAX)} AS source, ${within("event_type", TEXT_READ_MAX)} AS event_type, ${within("payload_json", JSON_READ_MAX)} AS payload_json, ${within("created_at", TEXT_READ_MAX)} AS created_at, id`;

/**
 * The briefs, loads and session ends since `since`, oldest first: each through its index range (source_type), the
 * session ends of every writer (typed-events.ts). A row that is two of them (a load written as a session end) once.
 */
function windowRows(db: Database, since: string): Row[] {
  const briefs = db.query(`SELECT ${COLUMNS} FROM execution_events WHERE source = 'context_brief' AND event_type = 'brief_built' AND created_at >= ?`).all(since) as Row[];
  const loads = db.query(`SELECT ${COLUMNS} FROM execution_events WHERE source = ? AND created_at >= ?`).all(LOAD_SOURCE, since) as Row[];
  const byId = new Map<number, Row>();
  for (const row of [...briefs, ...loads, ...typesSince<Row>(db, COLUMNS, SESSION_END_TYPES, since)]) byId.set(row.id, row);
  return [...byId.values()].sort(oldestFirst);
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

export function emptyReport(sinceDays: number, feature: string | null): UsageReport {
  return { ok: true, store: false, since_days: sinceDays, feature, briefs: 0, loads: 0, session_ends: 0, agents: [], artifacts: [], gaps: [], guard: emptyGuardUsage(sinceDays, false) };
}

export function buildReport(root: string, db: Database, sinceDays: number, feature: string | null, now = Date.now()): UsageReport {
  const since = new Date(now - sinceDays * 86_400_000).toISOString();
  const rows = windowRows(db, since);
  const agents = new Map<string, AgentUsage>();
  const artifacts = new Map<string, ArtifactUsage>();
  const agentOf = (name: string | null) => {
    const id = (name ?? "").replace(/^@/, "") || "unknown";
    let entry = agents.get(id);
    if (!entry) agents.set(id, (entry = { agent: id, briefs: 0, loads: 0, session_ends: 0 }));
    return entry;
  };
  const artifactOf = (path: string) => {
    let entry = artifacts.get(path);
    if (!entry) artifacts.set(path, (entry = { path, selected: 0, loads: 0 }));
    return entry;
  };
  let briefs = 0;
  let loads = 0;
  let sessionEnds = 0;
  let lowConfidence = 0;
  let generic = 0;
  for (const row of rows) {
    const payload = parseJsonObject(row.payload_json) ?? {};
    if (row.source === "context_brief") {
      if (feature && payload.feature_slug !== feature) continue;
      briefs += 1;
      agentOf(row.agent_name).briefs += 1;
      for (const path of new Set([...strings(payload.must_load), ...strings(payload.should_load)])) artifactOf(path).selected += 1;
      if (payload.confidence === "low") lowConfidence += 1;
      if (payload.generic_task === true) generic += 1;
    } else if (row.source === LOAD_SOURCE) {
      if (feature && payload.feature_slug !== undefined && payload.feature_slug !== feature) continue;
      loads += 1;
      agentOf(row.agent_name).loads += 1;
      const paths = typeof payload.path === "string" ? [payload.path] : strings(payload.paths);
      for (const path of paths) artifactOf(path).loads += 1;
    } else {
      sessionEnds += 1;
      agentOf(row.agent_name).session_ends += 1;
    }
  }
  const gaps: string[] = [];
  if (lowConfidence > 0) gaps.push(`${lowConfidence} brief(s) with low confidence — rules lack triggers/paths for those tasks`);
  if (generic > 0) gaps.push(`${generic} brief(s) for a generic task — no domain word to route by`);
  if (briefs === 0 && sessionEnds > 0) gaps.push("sessions ended without any context:brief — agents are not asking for context");
  return {
    ok: true,
    store: true,
    since_days: sinceDays,
    feature,
    briefs,
    loads,
    session_ends: sessionEnds,
    agents: [...agents.values()].sort((a, b) => b.briefs + b.loads - (a.briefs + a.loads) || a.agent.localeCompare(b.agent)),
    artifacts: [...artifacts.values()].sort((a, b) => b.selected - a.selected || b.loads - a.loads || a.path.localeCompare(b.path)).slice(0, MAX_ARTIFACTS),
    gaps,
    guard: guardUsage(root, db, sinceDays, now),
  };
}

export function reportLines(report: UsageReport): string[] {
  if (!report.store) {
    return ["Context usage: no runtime store yet — nothing recorded. Run `aioson runtime:init .`; briefs, loads and guard injections are recorded from then on."];
  }
  const scope = report.feature ? `, feature ${report.feature}` : "";
  const lines = [
    `Context usage (last ${report.since_days} days${scope}): ${report.briefs} brief(s) · ${report.loads} load(s) · ${report.session_ends} session end(s).`,
    ...guardUsageLines(report.guard),
  ];
  if (report.agents.length > 0) {
    lines.push("Agents (briefs / loads / session ends):");
    for (const a of report.agents) lines.push(`- @${a.agent}: ${a.briefs} / ${a.loads} / ${a.session_ends}`);
  }
  if (report.artifacts.length > 0) {
    lines.push("Artifacts (selected by a brief × confirmed loads):");
    for (const a of report.artifacts) lines.push(`- ${a.path}: ${a.selected} × ${a.loads}`);
  }
  for (const gap of report.gaps) lines.push(`! ${gap}`);
  return lines.map(terminalText);
}
