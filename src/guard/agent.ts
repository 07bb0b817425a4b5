import { existsSync } from "node:fs";
import { agentOption, stripQuotes } from "../core/agent.ts";
import { dbPath } from "../store/paths.ts";

/** Spec 6.3: which agent's rules judge this write. */

const RECENT_BRIEF_MS = 2 * 60 * 60 * 1000;

function isAuto(value: string | undefined): boolean {
  return value === undefined || ["", "auto"].includes(stripQuotes(value).toLowerCase());
}

/** The agent of the newest `brief_built`/`selection_built` row of the last two hours; null if none or unreadable. */
export async function latestBriefAgent(root: string, now = Date.now()): Promise<string | null> {
  if (!existsSync(dbPath(root))) return null;
  try {
    // Through openStore: a symlinked store (another project's) is refused, not read.
    const { openStore, closeStore } = await import("../store/db.ts");
    const store = openStore(root, { mustExist: true, readonly: true, maxWaitMs: 200 });
    if (!store) return null;
    try {
      // One index range per writer (source_type): the OR of both would be read whole and sorted.
      const newest = (source: string, type: string) =>
        `SELECT * FROM (SELECT agent_name, created_at, id FROM execution_events
           WHERE source = '${source}' AND event_type = '${type}' AND created_at >= $since ORDER BY created_at DESC, id DESC LIMIT 1)`;
      const row = store.db
        .query(`${newest("context_brief", "brief_built")} UNION ALL ${newest("context_select", "selection_built")} ORDER BY created_at DESC, id DESC LIMIT 1`)
        .get({ $since: new Date(now - RECENT_BRIEF_MS).toISOString() }) as { agent_name: string | null } | null;
      return row?.agent_name ? row.agent_name : null;
    } finally {
      closeStore(store);
    }
  } catch {
    return null;
  }
}

export type AgentSources = {
  option: string | undefined;
  eventAgent: string | null;
  env: string | undefined;
  root: string | null;
};

export async function resolveGuardAgent(sources: AgentSources): Promise<string> {
  if (!isAuto(sources.option)) return agentOption(sources.option);
  if (sources.eventAgent) return agentOption(sources.eventAgent);
  if (!isAuto(sources.env)) return agentOption(sources.env);
  const recent = sources.root ? await latestBriefAgent(sources.root) : null;
  return recent ? agentOption(recent) : "dev";
}
