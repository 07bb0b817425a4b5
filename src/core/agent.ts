/** Spec 0.2: agents AIOSON ships; anything else is a custom or squad agent. */
export const REGISTERED_AGENTS: ReadonlySet<string> = new Set([
  "setup", "discovery-design-doc", "discover", "product", "deyvin", "analyst", "scope-check", "architect",
  "ux-ui", "pm", "dev", "pentester", "qa", "validator", "shakedown", "tester", "orchestrator", "squad",
  "orache", "genome", "design-hybrid-forge", "site-forge", "benchmark", "forge-run", "neo", "sheldon",
  "planner", "committer", "copywriter", "briefing", "refiner", "profiler-researcher", "profiler-enricher",
  "profiler-forge",
]);

const LEGACY_IDS: ReadonlyMap<string, string> = new Map([["briefing-refiner", "refiner"], ["pair", "deyvin"]]);
const AGENT_ID = /^[a-z0-9][a-z0-9-]*$/;
/** An agent id names a pointer file (`.sessions/@<id>.json`) and is stored in every row: a word, not a payload. */
export const AGENT_ID_MAX = 64;

/** trim, lowercase, strip one leading `@`. */
export function normalizeAgent(name: string): string {
  return name.trim().toLowerCase().replace(/^@/, "");
}

/** normalize, then map a legacy id to its canonical id. */
export function canonicalAgent(name: string): string {
  const normal = normalizeAgent(name);
  return LEGACY_IDS.get(normal) ?? normal;
}

export function agentHandle(name: string): string {
  return `@${canonicalAgent(name)}`;
}

/** cmd.exe passes quote characters through literally: `--agent='qa'` arrives as `'qa'`. */
export function stripQuotes(value: string): string {
  return value.trim().replace(/^['"`]+|['"`]+$/g, "").trim();
}

/**
 * Spec 4.1's agent id (`^[a-z0-9][a-z0-9-]*$`, at most AGENT_ID_MAX characters): what `--agent` must be and what an
 * agent name read back from the store, a pointer or a harness config must be before it becomes a path part.
 */
export function isAgentId(id: string): boolean {
  return id.length <= AGENT_ID_MAX && AGENT_ID.test(id);
}

/** An `--agent` value as hook commands take it: quotes stripped, canonical, else the fallback. */
export function agentOption(value: unknown, fallback = "dev"): string {
  if (typeof value !== "string") return fallback;
  const id = canonicalAgent(stripQuotes(value));
  return isAgentId(id) ? id : fallback;
}
