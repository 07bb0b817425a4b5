/**
 * `hooks:install --with=<guard,…>`: the chosen built-in guards (src/kit/catalog.ts) as handler specs per harness.
 * A guard goes where the harness has its event; matchers come from the catalogue (Copilot has none, OpenCode gets
 * the guards inside its generated plugin instead of a config file).
 */
import { GUARD_CATALOG, GUARD_NAMES, guardCommandLine, guardCommandLineWindows, selectGuards, type CatalogEntry, type KitHarness } from "../kit/catalog.ts";
import { installedAgentId } from "./agents.ts";
import { GEMINI_HANDLER_ENV, agentOfCommand, bareWord, subcommandOf } from "./commands.ts";
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
  return entries.flatMap((entry) => {
    const hook = entry.hooks[harness];
    if (!hook) return [];
    const spec: HandlerSpec = { event: hook.event, timeout: entry.timeout, command: guardCommandLine(entry, harness, options) };
    if (harness === "gemini") {
      // Gemini CLI: a named handler, the timeout in milliseconds, the environment its one-line command relies on.
      return [{ event: hook.event, ...(hook.matcher !== null ? { matcher: hook.matcher } : {}), name: `aioson-guard-${entry.name}`, timeout: entry.timeout * 1000, command: spec.command, env: GEMINI_HANDLER_ENV }];
    }
    if (harness === "copilot") {
      spec.flat = true;
      spec.windows = guardCommandLineWindows(entry, harness, options);
    } else {
      if (hook.matcher !== null) spec.matcher = hook.matcher;
      if (harness === "codex") spec.commandWindows = guardCommandLineWindows(entry, harness, options);
    }
    return [spec];
  });
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
    const sub = subcommandOf(command) ?? "";
    if (!sub.startsWith("guard:") || agents.has(sub.slice(6))) continue;
    const agent = installedAgentId(agentOfCommand(command));
    rejected ||= agent.rejected;
    agents.set(sub.slice(6), agent.id === "auto" ? null : agent.id);
  }
  const specs = GUARD_CATALOG.filter((entry) => agents.has(entry.name)).flatMap((entry) => guardSpecs(tool, [entry], agents.get(entry.name) ?? null));
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

/** The guard names among a list of specs (`guard:<name>` handlers), in order, without repeats. */
export function guardNamesOf(specs: readonly HandlerSpec[]): string[] {
  const names = specs.map((spec) => subcommandOf(spec.command) ?? "").filter((sub) => sub.startsWith("guard:")).map((sub) => sub.slice(6));
  return [...new Set(names)];
}
