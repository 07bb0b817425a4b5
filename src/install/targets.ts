/**
 * One JSON hook file or the OpenCode plugin file, installed or uninstalled: read, decide, write.
 * Returns data (what happened) and the human lines; the command layer prints.
 */
import { readdirSync, rmdirSync } from "node:fs";
import { dirname } from "node:path";
import { installedAgents, installedGuardHooks, mergeInstall, mergeUninstall } from "./merge.ts";
import { isOurPlugin, opencodePluginSource, pluginAgent } from "./opencode-plugin.ts";
import type { HandlerSpec, JsonObject } from "./types.ts";
import { errorCode, plannedText, readConfigText, readJsonForMerge, removeFile, writeFileAtomicKeepMode, writeTarget } from "./write.ts";

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
};

export type AgentChoice = { explicitAgent: string | null };

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Spec 9.2: explicit (non-auto) agent; else the installed one; else `dev`. Guard: explicit (incl. auto); else installed; else auto. */
export function resolveAgents(choice: AgentChoice, installed: { telemetry: string | null; guard: string | null }): { agent: string; guardAgent: string } {
  const explicit = choice.explicitAgent;
  const agent = explicit && explicit !== "auto" ? explicit : (installed.telemetry ?? "dev");
  const guardAgent = explicit ?? installed.guard ?? "auto";
  return { agent, guardAgent };
}

function invalidLine(label: string, path: string): string {
  return `  ⚠ ${label} — ${path} exists but is not valid JSON; leaving it untouched. Fix the file and re-run: aioson hooks:install`;
}

function unreadableLine(label: string, path: string, code: string): string {
  return `  ⚠ ${label} — ${path} could not be read right now (${code}); leaving it untouched. Re-run later: aioson hooks:install`;
}

export type JsonInstallInput = {
  /** Tool id for the spec's failure line `✗ <tool>: <message>`. */
  tool: string;
  label: string;
  path: string;
  display: string;
  choice: AgentChoice;
  dryRun: boolean;
  /** `kept` = the optional guard hooks already installed in this file (re-added unless the caller chose others). */
  specs: (agent: string, guardAgent: string, kept: readonly HandlerSpec[]) => readonly HandlerSpec[];
  summary: (specs: readonly HandlerSpec[]) => string[];
};

export function installJsonTarget(input: JsonInstallInput): TargetOutcome {
  const { label, path, display } = input;
  const read = readJsonForMerge(path);
  const fallback = resolveAgents(input.choice, { telemetry: null, guard: null });
  if (read.state === "invalid") return { path, changed: false, skipped: "invalid-config", ...fallback, lines: [invalidLine(label, display)] };
  if (read.state === "unreadable") return { path, changed: false, skipped: "unreadable", ...fallback, lines: [unreadableLine(label, display, read.code)] };
  const agents = resolveAgents(input.choice, installedAgents(read.data.hooks));
  const specs = input.specs(agents.agent, agents.guardAgent, installedGuardHooks(read.data.hooks));
  const next = mergeInstall(read.data, specs);
  const text = plannedText(read, next);
  if (text === null) return { path, changed: false, ...agents, lines: [`  ✓ ${label} — ${display} (already up to date)`] };
  if (input.dryRun) return { path, changed: true, ...agents, lines: [`  [dry-run] Would write: ${display}`, ...input.summary(specs)] };
  try {
    writeFileAtomicKeepMode(path, text);
  } catch (error) {
    return { path, changed: false, error: message(error), ...agents, lines: [`  ✗ ${input.tool}: ${message(error)}`] };
  }
  return { path, changed: true, ...agents, lines: [`  ✓ ${label} — ${display}`] };
}

export type UninstallOutcome = { path: string; removed: boolean; skipped?: Skip; error?: string; lines: string[] };

/** Removes a folder we may have created (workspace `.agents/`) once nothing is left in it. */
function removeIfEmpty(dir: string): void {
  try {
    if (readdirSync(dir).length === 0) rmdirSync(dir);
  } catch {
    // not empty, not ours to judge, or already gone
  }
}

export function uninstallJsonTarget(label: string, noun: string, path: string, display: string, dryRun: boolean, cleanDir: boolean): UninstallOutcome {
  const read = readJsonForMerge(path);
  if (read.state === "missing") return { path, removed: false, lines: [`  ${noun ? `${label} ${noun}` : label} not found — nothing to remove`] };
  if (read.state === "invalid") return { path, removed: false, skipped: "invalid-config", lines: [invalidLine(label, display).replace("aioson hooks:install", "aioson hooks:uninstall")] };
  if (read.state === "unreadable") return { path, removed: false, skipped: "unreadable", lines: [unreadableLine(label, display, read.code).replace("aioson hooks:install", "aioson hooks:uninstall")] };
  const next: JsonObject = mergeUninstall(read.data);
  const text = plannedText(read, next);
  if (text === null) return { path, removed: false, lines: [`  ${label} — no AIOSON hooks in ${display}`] };
  if (dryRun) return { path, removed: true, lines: [`  [dry-run] Would remove AIOSON hooks from: ${display}`] };
  try {
    // Only our content was there (the file did not exist before install): remove it, unless it is a dotfiles link.
    if (Object.keys(next).length === 0 && writeTarget(path) === path) {
      removeFile(path);
      if (cleanDir) removeIfEmpty(dirname(path));
    } else {
      writeFileAtomicKeepMode(path, text);
    }
  } catch (error) {
    return { path, removed: false, error: message(error), lines: [`  ✗ ${label}: ${message(error)}`] };
  }
  return { path, removed: true, lines: [`  ✓ ${label} hooks removed — ${display}`] };
}

type PluginRead = { state: "missing" } | { state: "ours"; text: string } | { state: "foreign" } | { state: "unreadable"; code: string };

function readPlugin(path: string): PluginRead {
  try {
    const text = readConfigText(path);
    return isOurPlugin(text) ? { state: "ours", text } : { state: "foreign" };
  } catch (error) {
    const code = errorCode(error);
    return code === "ENOENT" ? { state: "missing" } : { state: "unreadable", code };
  }
}

const PLUGIN_LABEL = "OpenCode plugin";
const foreignLine = (path: string) => `  ⚠ ${PLUGIN_LABEL} — ${path} was not written by AIOSON; leaving it untouched.`;
const pluginUnreadableLine = (path: string, code: string) => `  ⚠ ${PLUGIN_LABEL} — ${path} could not be read right now (${code}); leaving it untouched.`;

export function installPlugin(path: string, choice: AgentChoice, dryRun: boolean): TargetOutcome {
  const read = readPlugin(path);
  const installed = read.state === "ours" ? pluginAgent(read.text) : null;
  const agents = resolveAgents(choice, { telemetry: installed, guard: null });
  if (read.state === "foreign") return { path, changed: false, skipped: "not-ours", ...agents, lines: [foreignLine(path)] };
  if (read.state === "unreadable") return { path, changed: false, skipped: "unreadable", ...agents, lines: [pluginUnreadableLine(path, read.code)] };
  const text = opencodePluginSource(agents.agent);
  if (read.state === "ours" && read.text === text) return { path, changed: false, ...agents, lines: [`  ✓ ${PLUGIN_LABEL} — ${path} (already up to date)`] };
  if (dryRun) return { path, changed: true, ...agents, lines: [`  [dry-run] Would write: ${path}`, "    tool.execute.after, chat.message, experimental.text.complete → hooks:emit; session compaction → hooks:recap"] };
  try {
    writeFileAtomicKeepMode(path, text);
  } catch (error) {
    return { path, changed: false, error: message(error), ...agents, lines: [`  ✗ opencode: ${message(error)}`] };
  }
  return { path, changed: true, ...agents, lines: [`  ✓ ${PLUGIN_LABEL} — ${path}`, "  ⚠ OpenCode loads plugins at startup: restart it to pick the plugin up."] };
}

export function uninstallPlugin(path: string, dryRun: boolean): UninstallOutcome {
  const read = readPlugin(path);
  if (read.state === "missing") return { path, removed: false, lines: [`  ${PLUGIN_LABEL} not found — nothing to remove`] };
  if (read.state === "foreign") return { path, removed: false, skipped: "not-ours", lines: [foreignLine(path)] };
  if (read.state === "unreadable") return { path, removed: false, skipped: "unreadable", lines: [pluginUnreadableLine(path, read.code)] };
  if (dryRun) return { path, removed: true, lines: [`  [dry-run] Would remove AIOSON hooks from: ${path}`] };
  try {
    removeFile(path);
  } catch (error) {
    return { path, removed: false, error: message(error), lines: [`  ✗ opencode: ${message(error)}`] };
  }
  return { path, removed: true, lines: [`  ✓ ${PLUGIN_LABEL} removed — ${path}`] };
}
