/**
 * One JSON hook file or the OpenCode plugin file, installed or uninstalled: read, decide, write.
 * Returns data (what happened) and the human lines; the command layer prints.
 */
import { readdirSync, rmdirSync } from "node:fs";
import { dirname } from "node:path";
import { installedAgentId } from "./agents.ts";
import { keptGuardSpecs } from "./guards.ts";
import { installedAgents, mergeInstall, mergeUninstall, type InstalledAgents } from "./merge.ts";
import { isOurPlugin, opencodePluginSource, pluginAgent, pluginGuards } from "./opencode-plugin.ts";
import type { HandlerSpec, JsonObject, ToolName } from "./types.ts";
import { cleanStaleTemps, plannedText, readConfigFile, readConfigText, removeConfigFile, userConfig, writeConfigFile, writeTarget, type ConfigFile, type ReadResult } from "./write.ts";

export type Skip = "invalid-config" | "unreadable" | "not-ours";

export type TargetOutcome = {
  path: string;
  changed: boolean;
  skipped?: Skip;
  error?: string;
  /** The agents this target ended up with (telemetry, guard). */
  agent: string;
  guardAgent: string;
  lines: string[];
  /** The handlers this target ended up with (JSON targets that were merged). */
  specs?: readonly HandlerSpec[];
};

export type AgentChoice = { explicitAgent: string | null };

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export type ResolvedAgents = { agent: string; guardAgent: string; rejected: boolean };

/**
 * Spec 9.2: explicit (non-auto) agent; else the installed one; else `dev`. Guard: explicit (incl. auto); else
 * installed; else auto. An installed agent is validated like `--agent` first: an invalid one counts as none
 * (`rejected` tells the caller to warn).
 */
export function resolveAgents(choice: AgentChoice, installed: InstalledAgents): ResolvedAgents {
  const explicit = choice.explicitAgent;
  const telemetry = explicit && explicit !== "auto" ? { id: explicit, rejected: false } : installedAgentId(installed.telemetry);
  const guard = explicit ? { id: explicit, rejected: false } : installedAgentId(installed.guard);
  return { agent: telemetry.id ?? "dev", guardAgent: guard.id ?? "auto", rejected: telemetry.rejected || guard.rejected };
}

const NO_AGENTS: InstalledAgents = { telemetry: null, guard: null };

function rejectedAgentLine(label: string, agent: string): string {
  return `  ⚠ ${label} — an installed AIOSON handler names an invalid agent; using the default (@${agent}) instead. Choose one with --agent=<id>.`;
}

/** The warning for a file that could not be taken as a config (spec 9.9 wording for the first two). */
function skipLine(label: string, path: string, read: ReadResult & { state: "invalid" | "unreadable" | "refused" }, rerun: string): string {
  if (read.state === "invalid") return `  ⚠ ${label} — ${path} exists but is not valid JSON; leaving it untouched. Fix the file and re-run: ${rerun}`;
  if (read.state === "unreadable") return `  ⚠ ${label} — ${path} could not be read right now (${read.code}); leaving it untouched. Re-run later: ${rerun}`;
  return `  ⚠ ${label} — ${path} is ${read.why}; leaving it untouched. Replace it with a JSON file and re-run: ${rerun}`;
}

const skipOf = (read: ReadResult & { state: "invalid" | "unreadable" | "refused" }): Skip => (read.state === "invalid" ? "invalid-config" : "unreadable");

export type JsonInstallInput = {
  tool: ToolName;
  label: string;
  file: ConfigFile;
  display: string;
  choice: AgentChoice;
  dryRun: boolean;
  /** `kept` = the optional guard hooks already installed in this file (re-added unless the caller chose others). */
  specs: (agent: string, guardAgent: string, kept: readonly HandlerSpec[]) => readonly HandlerSpec[];
  summary: (specs: readonly HandlerSpec[]) => string[];
};

export function installJsonTarget(input: JsonInstallInput): TargetOutcome {
  const { label, file, display } = input;
  const path = file.path;
  if (!input.dryRun) cleanStaleTemps(file);
  const read = readConfigFile(file);
  if (read.state === "invalid" || read.state === "unreadable" || read.state === "refused") {
    const { rejected: _rejected, ...fallback } = resolveAgents(input.choice, NO_AGENTS);
    return { path, changed: false, skipped: skipOf(read), ...fallback, lines: [skipLine(label, display, read, "aioson hooks:install")] };
  }
  const { rejected, ...agents } = resolveAgents(input.choice, installedAgents(read.data.hooks));
  const kept = keptGuardSpecs(input.tool, read.data.hooks);
  const warnings = [...(rejected ? [rejectedAgentLine(label, agents.agent)] : []), ...(kept.rejected ? [`  ⚠ ${label} — an installed guard handler names an invalid agent; it is not carried over.`] : [])];
  const specs = input.specs(agents.agent, agents.guardAgent, kept.specs);
  const next = mergeInstall(read.data, specs);
  const text = plannedText(read, next);
  if (text === null) return { path, changed: false, ...agents, specs, lines: [...warnings, `  ✓ ${label} — ${display} (already up to date)`] };
  if (input.dryRun) return { path, changed: true, ...agents, specs, lines: [...warnings, `  [dry-run] Would write: ${display}`, ...input.summary(specs)] };
  try {
    writeConfigFile(file, text);
  } catch (error) {
    return { path, changed: false, error: message(error), ...agents, lines: [...warnings, `  ✗ ${input.tool}: ${message(error)}`] };
  }
  return { path, changed: true, ...agents, specs, lines: [...warnings, `  ✓ ${label} — ${display}`] };
}

export type UninstallOutcome = { path: string; removed: boolean; skipped?: Skip; error?: string; lines: string[] };

/**
 * Removes the folders we may have created (workspace `.agents/`, `.github/hooks/` then `.github/`), innermost first,
 * each only once nothing is left in it (`rmdir` never follows a symlink).
 */
function removeIfEmpty(dir: string, levels: number): void {
  let current = dir;
  for (let level = 0; level < levels; level++) {
    try {
      if (readdirSync(current).length > 0) return;
      rmdirSync(current);
    } catch {
      return; // not ours to judge, or already gone
    }
    current = dirname(current);
  }
}

/** `cleanDirs`: how many folders above the file to remove when the uninstall deletes it and leaves them empty. */
export function uninstallJsonTarget(label: string, noun: string, file: ConfigFile, display: string, dryRun: boolean, cleanDirs: number): UninstallOutcome {
  const path = file.path;
  if (!dryRun) cleanStaleTemps(file);
  const read = readConfigFile(file);
  if (read.state === "missing") return { path, removed: false, lines: [`  ${noun ? `${label} ${noun}` : label} not found — nothing to remove`] };
  if (read.state !== "ok") return { path, removed: false, skipped: skipOf(read), lines: [skipLine(label, display, read, "aioson hooks:uninstall")] };
  const next: JsonObject = mergeUninstall(read.data);
  const text = plannedText(read, next);
  if (text === null) return { path, removed: false, lines: [`  ${label} — no AIOSON hooks in ${display}`] };
  if (dryRun) return { path, removed: true, lines: [`  [dry-run] Would remove AIOSON hooks from: ${display}`] };
  try {
    // Only our content was there (the file did not exist before install): remove it, unless it is a dotfiles link.
    if (Object.keys(next).length === 0 && (file.project !== null || writeTarget(path) === path)) {
      removeConfigFile(file);
      removeIfEmpty(dirname(path), cleanDirs);
    } else {
      writeConfigFile(file, text);
    }
  } catch (error) {
    return { path, removed: false, error: message(error), lines: [`  ✗ ${label}: ${message(error)}`] };
  }
  return { path, removed: true, lines: [`  ✓ ${label} hooks removed — ${display}`] };
}

type PluginRead = { state: "missing" } | { state: "ours"; text: string } | { state: "foreign" } | { state: "unreadable"; code: string } | { state: "refused"; why: string };

function readPlugin(path: string): PluginRead {
  const read = readConfigText(path);
  if (read.state !== "ok") return read;
  return isOurPlugin(read.text) ? { state: "ours", text: read.text } : { state: "foreign" };
}

const PLUGIN_LABEL = "OpenCode plugin";
const foreignLine = (path: string) => `  ⚠ ${PLUGIN_LABEL} — ${path} was not written by AIOSON; leaving it untouched.`;

function pluginSkipLine(path: string, read: PluginRead & { state: "unreadable" | "refused" }): string {
  return read.state === "unreadable" ? `  ⚠ ${PLUGIN_LABEL} — ${path} could not be read right now (${read.code}); leaving it untouched.` : `  ⚠ ${PLUGIN_LABEL} — ${path} is ${read.why}; leaving it untouched.`;
}

/** The plugin's hook list, for the dry-run summary. */
function pluginSummary(guards: readonly string[]): string[] {
  const lines = ["    tool.execute.after, chat.message, experimental.text.complete → hooks:emit; session compaction → hooks:recap"];
  if (guards.length > 0) lines.push(`    guards: ${guards.join(", ")}`);
  return lines;
}

/** `guards`: the guards to bake in (those with an OpenCode hook); undefined keeps the ones already installed. */
export function installPlugin(path: string, choice: AgentChoice, dryRun: boolean, guards?: readonly string[]): TargetOutcome & { guards: string[] } {
  if (!dryRun) cleanStaleTemps(userConfig(path));
  const read = readPlugin(path);
  const installed = read.state === "ours" ? pluginAgent(read.text) : null;
  const { rejected, ...agents } = resolveAgents(choice, { telemetry: installed, guard: null });
  const chosen = [...(guards ?? (read.state === "ours" ? pluginGuards(read.text) : []))];
  const base = { path, ...agents, guards: chosen };
  const warnings = rejected ? [rejectedAgentLine(PLUGIN_LABEL, agents.agent)] : [];
  if (read.state === "foreign") return { ...base, changed: false, skipped: "not-ours", lines: [foreignLine(path)] };
  if (read.state === "unreadable" || read.state === "refused") return { ...base, changed: false, skipped: "unreadable", lines: [pluginSkipLine(path, read)] };
  const text = opencodePluginSource(agents.agent, chosen);
  if (read.state === "ours" && read.text === text) return { ...base, changed: false, lines: [`  ✓ ${PLUGIN_LABEL} — ${path} (already up to date)`] };
  if (dryRun) return { ...base, changed: true, lines: [...warnings, `  [dry-run] Would write: ${path}`, ...pluginSummary(chosen)] };
  try {
    writeConfigFile(userConfig(path), text);
  } catch (error) {
    return { ...base, changed: false, error: message(error), lines: [...warnings, `  ✗ opencode: ${message(error)}`] };
  }
  return { ...base, changed: true, lines: [...warnings, `  ✓ ${PLUGIN_LABEL} — ${path}`, "  ⚠ OpenCode loads plugins at startup: restart it to pick the plugin up."] };
}

export function uninstallPlugin(path: string, dryRun: boolean): UninstallOutcome {
  if (!dryRun) cleanStaleTemps(userConfig(path));
  const read = readPlugin(path);
  if (read.state === "missing") return { path, removed: false, lines: [`  ${PLUGIN_LABEL} not found — nothing to remove`] };
  if (read.state === "foreign") return { path, removed: false, skipped: "not-ours", lines: [foreignLine(path)] };
  if (read.state === "unreadable" || read.state === "refused") return { path, removed: false, skipped: "unreadable", lines: [pluginSkipLine(path, read)] };
  if (dryRun) return { path, removed: true, lines: [`  [dry-run] Would remove AIOSON hooks from: ${path}`] };
  try {
    removeConfigFile(userConfig(path));
  } catch (error) {
    return { path, removed: false, error: message(error), lines: [`  ✗ opencode: ${message(error)}`] };
  }
  return { path, removed: true, lines: [`  ✓ ${PLUGIN_LABEL} removed — ${path}`] };
}
