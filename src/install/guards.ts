/**
 * `hooks:install --with=<guard,…>`: the chosen built-in guards (src/kit/catalog.ts) as handler specs per harness.
 * A guard goes where the harness has its event; matchers come from the catalogue (Copilot has none, OpenCode gets
 * the guards inside its generated plugin instead of a config file).
 */
import { GUARD_CATALOG, GUARD_NAMES, STOP_GUARDS_COMMAND, guardCommandLine, guardCommandLineWindows, selectGuards, stopGuardsLines, stopGuardsOf, type CatalogEntry, type KitHarness } from "../kit/catalog.ts";
import { installedAgentId } from "./agents.ts";
import { COPILOT_HANDLER_ENV, GEMINI_HANDLER_ENV, agentOfCommand, bareWord, codexWindowsLine, geminiLine, subcommandOf } from "./commands.ts";
import { copilotTimeouts } from "./copilot.ts";
import { allHandlers } from "./merge.ts";
import type { HandlerSpec, ToolName } from "./types.ts";

export type GuardSelection = { ok: true; entries: CatalogEntry[] } | { ok: false; message: string };

/** `--with` parsing: names (with or without `guard:`), `all`, or `none` (removes every installed guard). */
export function parseWith(list: string): GuardSelection {
  const trimmed = list.trim().toLowerCase();
  if (trimmed === "none") return { ok: true, entries: [] };
  const { entries, unknown } = selectGuards(list);
  if (unknown.length > 0) {
    return { ok: false, message: `unknown guard${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")} — known: ${GUARD_NAMES.join(", ")} (or all, none)` };
  }
  if (entries.length === 0) return { ok: false, message: `--with needs guard names — known: ${GUARD_NAMES.join(", ")} (or all, none)` };
  return { ok: true, entries };
}

/** Harnesses that take guard handlers in a JSON config (Antigravity: no catalogue entry; OpenCode: the plugin). */
const JSON_HARNESSES: Readonly<Partial<Record<ToolName, KitHarness>>> = { claude: "claude", codex: "codex", copilot: "copilot", gemini: "gemini" };

/** The handler specs of the chosen guards for one tool, catalogue order. `agent` only when fixed by `--agent`. */
export function guardSpecs(tool: ToolName, entries: readonly CatalogEntry[], agent: string | null): HandlerSpec[] {
  const harness = JSON_HARNESSES[tool];
  if (!harness) return [];
  // The kit writes the agent bare on the Windows line.
  const options = agent ? { agent: bareWord(agent) } : {};
  // Copilot hands the model only one of several blocking Stop answers: its Stop guards share one handler.
  const stops = harness === "copilot" ? entries.filter((entry) => entry.hooks.copilot?.event === "Stop") : [];
  const combined: HandlerSpec[] = stops.length === 0 ? [] : [{ event: "Stop", ...copilotTimeouts(Math.max(...stops.map((entry) => entry.timeout))), ...stopGuardsLines(stops.map((entry) => entry.name), options), env: COPILOT_HANDLER_ENV, flat: true }];
  return [...entries.filter((entry) => !stops.includes(entry)).flatMap((entry) => {
    const hook = entry.hooks[harness];
    if (!hook) return [];
    const spec: HandlerSpec = { event: hook.event, timeout: entry.timeout, command: guardCommandLine(entry, harness, options) };
    if (harness === "gemini") {
      // Gemini CLI: a named handler, the timeout in milliseconds, the environment its one-line command relies on.
      return [{ event: hook.event, ...(hook.matcher !== null ? { matcher: hook.matcher } : {}), name: `aioson-guard-${entry.name}`, timeout: entry.timeout * 1000, command: spec.command, env: GEMINI_HANDLER_ENV }];
    }
    if (harness === "copilot") {
      Object.assign(spec, copilotTimeouts(entry.timeout));
      spec.flat = true;
      spec.windows = guardCommandLineWindows(entry, harness, options);
      spec.powershell = geminiLine(`guard:${entry.name} . --tool=copilot${options.agent ? ` --agent=${options.agent}` : ""}`);
      spec.env = COPILOT_HANDLER_ENV;
    } else {
      if (hook.matcher !== null) spec.matcher = hook.matcher;
      if (harness === "codex") spec.commandWindows = codexWindowsLine(guardCommandLineWindows(entry, harness, options));
    }
    return [spec];
  }), ...combined];
}

/** The catalogue guards one of our guard handlers runs: its own, or those a `guard:stop-guards` line names. */
function guardsOfCommand(command: string): CatalogEntry[] {
  const sub = subcommandOf(command) ?? "";
  if (sub === STOP_GUARDS_COMMAND) return stopGuardsOf(command);
  return sub.startsWith("guard:") ? GUARD_CATALOG.filter((entry) => entry.name === sub.slice(6)) : [];
}

/**
 * The optional guards installed in a hooks tree, regenerated from the catalogue in catalogue order — never copied:
 * a handler read back is untrusted text, and only the guard's name and its fixed agent (validated like `--agent`)
 * are taken from it. `rejected`: a guard named an invalid agent and was regenerated without one.
 */
export function keptGuardSpecs(tool: ToolName, hooks: unknown): { specs: HandlerSpec[]; rejected: boolean } {
  const agents = new Map<string, string | null>();
  let rejected = false;
  for (const { handler } of allHandlers(hooks)) {
    const command = typeof handler.command === "string" ? handler.command : "";
    const named = guardsOfCommand(command).filter((entry) => !agents.has(entry.name));
    if (named.length === 0) continue;
    const agent = installedAgentId(agentOfCommand(command));
    rejected ||= agent.rejected;
    for (const entry of named) agents.set(entry.name, agent.id === "auto" ? null : agent.id);
  }
  // Guards with the same fixed agent are regenerated together (Copilot's Stop guards share one handler).
  const byAgent = new Map<string | null, CatalogEntry[]>();
  for (const entry of GUARD_CATALOG.filter((candidate) => agents.has(candidate.name))) {
    const agent = agents.get(entry.name) ?? null;
    byAgent.set(agent, [...(byAgent.get(agent) ?? []), entry]);
  }
  const specs = [...byAgent].flatMap(([agent, entries]) => guardSpecs(tool, entries, agent));
  return { specs, rejected };
}

/** `--with` as the installer's per-tool `extra` record. */
export function guardExtras(entries: readonly CatalogEntry[], agent: string | null): Partial<Record<ToolName, readonly HandlerSpec[]>> {
  return {
    claude: guardSpecs("claude", entries, agent),
    codex: guardSpecs("codex", entries, agent),
    copilot: guardSpecs("copilot", entries, agent),
    gemini: guardSpecs("gemini", entries, agent),
  };
}

/** Guards that have an OpenCode plugin hook, by name (catalogue order). */
export function opencodeGuards(entries: readonly CatalogEntry[]): string[] {
  return entries.filter((entry) => entry.hooks.opencode !== null).map((entry) => entry.name);
}

/** The guard names among a list of specs (`guard:<name>` and `guard:stop-guards` handlers), catalogue order, without repeats. */
export function guardNamesOf(specs: readonly HandlerSpec[]): string[] {
  const names = new Set(specs.flatMap((spec) => guardsOfCommand(spec.command).map((entry) => entry.name)));
  return GUARD_NAMES.filter((name) => names.has(name));
}
