/**
 * `hooks:install` / `hooks:uninstall` orchestration (spec 9.1-9.12): which tools, which files, printed lines, result.
 * Pure of printing: returns lines and a result object; the command files print them.
 */
import { existsSync } from "node:fs";
import { isAbsolute, relative } from "node:path";
import { ANTIGRAVITY_GLOBAL_LABEL, ANTIGRAVITY_WORKSPACE_LABEL, antigravityHandlers } from "./antigravity.ts";
import { CLAUDE_LABEL, claudeHandlers } from "./claude.ts";
import { subcommandOf } from "./commands.ts";
import { CODEX_LABEL, CODEX_TRUST_LINE, codexHandlers } from "./codex.ts";
import { COPILOT_LABEL, COPILOT_TRUST_LINE, copilotHandlers } from "./copilot.ts";
import { GEMINI_LABEL, GEMINI_TRUST_LINE, geminiHandlers } from "./gemini.ts";
import { guardNamesOf } from "./guards.ts";
import { obsoleteWrapperLine, rewriteLegacyWrapper } from "./codex-wrapper.ts";
import * as paths from "./paths.ts";
import { installJsonTarget, installPlugin, resolveAgents, uninstallJsonTarget, uninstallPlugin, type AgentChoice, type JsonInstallInput, type TargetOutcome, type UninstallOutcome } from "./targets.ts";
import { TOOLS, isToolName, type HandlerSpec, type ToolName } from "./types.ts";
import { removeFile, unsafeProjectPath, userConfig, type ConfigFile } from "./write.ts";

export const RULE = "─".repeat(50);

export type InstallRequest = {
  dir: string;
  cwd: string;
  tool: string | undefined;
  explicitAgent: string | null;
  guard: boolean;
  dryRun: boolean;
  env: paths.Env;
  /**
   * Optional guard hooks per tool (`--with=`). Absent: the guard hooks already installed in each file are kept
   * (so `init`/`update` never drop them); present: exactly these (a tool missing from the record gets none).
   */
  extra?: Partial<Record<ToolName, readonly HandlerSpec[]>>;
  /** The guards baked into the OpenCode plugin (`--with`); absent: the plugin keeps the ones it has. */
  pluginGuards?: readonly string[];
};

export type InstallToolResult = {
  tool: string;
  configPath?: string;
  globalPath?: string;
  workspacePath?: string;
  pluginPath?: string;
  changed: boolean;
  skipped?: string;
  error?: string;
  /** The optional guard hooks this tool ended up with (`--with`), when any. */
  guards?: string[];
};

export type InstallResult = {
  ok: boolean;
  reason?: string;
  error?: string;
  agentName?: string;
  guardAgent?: string;
  dryRun: boolean;
  results: InstallToolResult[];
  exitCode?: number;
};

function unknownToolLine(tool: string): string {
  return `  ⚠ Unknown tool: ${tool} — supported: ${TOOLS.join(", ")}`;
}

/** `--tool` parsing: absent/`all` ⇒ null (detect); else the comma list, trimmed and lower-cased, in the given order. */
export function parseToolList(tool: string | undefined): string[] | null {
  if (tool === undefined || tool.trim() === "" || tool.trim().toLowerCase() === "all") return null;
  return tool.split(",").map((t) => t.trim().toLowerCase()).filter(Boolean);
}

/** Shown paths: as configured, the workspace one relative to the cwd when inside it. */
function displayPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
}

const PURPOSES: { label: string; test: (command: string) => boolean }[] = [
  { label: "context:guard", test: (c) => subcommandOf(c) === "context:guard" },
  { label: "hooks:emit --then=agent:done", test: (c) => c.includes("--then=agent:done") },
  { label: "hooks:emit --event=SessionEnd", test: (c) => c.includes("--event=SessionEnd") },
  { label: "hooks:emit", test: (c) => subcommandOf(c) === "hooks:emit" },
  { label: "hooks:recap", test: (c) => subcommandOf(c) === "hooks:recap" },
];

/** Dry-run summary: one line per purpose, events in order with their matchers merged. */
export function summarize(specs: readonly HandlerSpec[]): string[] {
  const byLabel = new Map<string, Map<string, string[]>>();
  for (const spec of specs) {
    const label = PURPOSES.find((p) => p.test(spec.command))?.label ?? (subcommandOf(spec.command) ?? spec.command);
    const events = byLabel.get(label) ?? new Map<string, string[]>();
    const matchers = events.get(spec.event) ?? [];
    if (spec.matcher) matchers.push(spec.matcher);
    events.set(spec.event, matchers);
    byLabel.set(label, events);
  }
  return [...byLabel].map(([label, events]) => {
    const parts = [...events].map(([event, matchers]) => (matchers.length > 0 ? `${event} (${matchers.join("|")})` : event));
    return `    ${parts.join(", ")} → ${label}`;
  });
}

type Processed = { tool: ToolName; outcome: TargetOutcome[]; result: InstallToolResult; lines: string[] };

/** The per-tool result object, with `guards` only when there are some. */
function toolResult(tool: ToolName, where: Partial<InstallToolResult>, outcomes: readonly TargetOutcome[], guards: readonly string[]): InstallToolResult {
  return {
    tool,
    ...where,
    changed: outcomes.some((o) => o.changed),
    skipped: outcomes.find((o) => o.skipped)?.skipped,
    error: outcomes.find((o) => o.error)?.error,
    ...(guards.length > 0 ? { guards: [...guards] } : {}),
  };
}

/** `    + guards: a, b` under a tool's line (the dry-run summary already lists them). */
function guardLine(guards: readonly string[], dryRun: boolean): string[] {
  return guards.length > 0 && !dryRun ? [`    + guards: ${guards.join(", ")}`] : [];
}

function processInstall(tool: ToolName, request: InstallRequest, choice: AgentChoice): Processed {
  const { env, dryRun } = request;
  const chosen = request.extra === undefined ? undefined : (request.extra[tool] ?? []);
  const extraFor = (kept: readonly HandlerSpec[]) => chosen ?? kept;
  const json = (label: string, file: ConfigFile, display: string, specs: JsonInstallInput["specs"]) =>
    installJsonTarget({ tool, label, file, display, choice, dryRun, summary: summarize, specs });
  const guardsOf = (outcome: TargetOutcome) => guardNamesOf(outcome.specs ?? []);
  if (tool === "claude") {
    const path = paths.claudeSettingsPath(env);
    const outcome = json(CLAUDE_LABEL, userConfig(path), path, (agent, guardAgent, kept) => claudeHandlers({ agent, guardAgent, guard: request.guard, extra: extraFor(kept) }));
    const guards = guardsOf(outcome);
    return { tool, outcome: [outcome], result: toolResult(tool, { configPath: path }, [outcome], guards), lines: [...outcome.lines, ...guardLine(guards, dryRun)] };
  }
  if (tool === "codex") {
    const path = paths.codexHooksPath(env);
    const outcome = json(CODEX_LABEL, userConfig(path), path, (agent, guardAgent, kept) => codexHandlers({ agent, guardAgent, guard: false, extra: extraFor(kept) }));
    const guards = guardsOf(outcome);
    const lines = [...outcome.lines, ...guardLine(guards, dryRun)];
    if (outcome.changed && !dryRun) lines.push(CODEX_TRUST_LINE);
    const wrapper = paths.codexWrapperPath(env);
    if (existsSync(wrapper)) {
      if (!dryRun) rewriteLegacyWrapper(wrapper);
      lines.push(obsoleteWrapperLine(wrapper));
    }
    return { tool, outcome: [outcome], result: toolResult(tool, { configPath: path }, [outcome], guards), lines };
  }
  if (tool === "gemini") {
    const path = paths.geminiSettingsPath(env);
    const outcome = json(GEMINI_LABEL, userConfig(path), path, (agent, guardAgent, kept) => geminiHandlers({ agent, guardAgent, guard: request.guard, extra: extraFor(kept) }));
    const guards = guardsOf(outcome);
    const lines = [...outcome.lines, ...guardLine(guards, dryRun)];
    const missing = selectedGuards(request).filter((name) => !guards.includes(name));
    if (missing.length > 0) lines.push(`  ⚠ Gemini CLI — no hook for: ${missing.join(", ")} (Gemini CLI has no sub-agent events, and its PreCompress fires before every model call).`);
    if (outcome.changed && !dryRun) lines.push(GEMINI_TRUST_LINE);
    return { tool, outcome: [outcome], result: toolResult(tool, { configPath: path }, [outcome], guards), lines };
  }
  if (tool === "copilot") {
    const path = paths.copilotHooksPath(request.dir);
    const outcome = json(COPILOT_LABEL, workspaceFile(path, request.dir), displayPath(path, request.cwd), (agent, guardAgent, kept) => copilotHandlers({ agent, guardAgent, guard: request.guard, extra: extraFor(kept) }));
    const guards = guardsOf(outcome);
    const lines = [...outcome.lines, ...guardLine(guards, dryRun)];
    if (outcome.changed && !dryRun) lines.push(COPILOT_TRUST_LINE);
    return { tool, outcome: [outcome], result: toolResult(tool, { configPath: path }, [outcome], guards), lines };
  }
  if (tool === "antigravity") {
    const globalPath = paths.antigravityGlobalPath(env);
    const workspacePath = paths.antigravityWorkspacePath(request.dir);
    const specs = (agent: string, guardAgent: string, kept: readonly HandlerSpec[]) => antigravityHandlers({ agent, guardAgent, guard: false, extra: extraFor(kept) });
    const both = [json(ANTIGRAVITY_GLOBAL_LABEL, userConfig(globalPath), globalPath, specs), json(ANTIGRAVITY_WORKSPACE_LABEL, workspaceFile(workspacePath, request.dir), displayPath(workspacePath, request.cwd), specs)];
    const lines = both.flatMap((o) => o.lines);
    const skipped = selectedGuards(request);
    if (skipped.length > 0) lines.push(`  ⚠ Antigravity — guards not installed there (${skipped.join(", ")}): its hook events and payloads are unconfirmed, and a PreToolUse hook fails closed on several builds.`);
    return { tool, outcome: both, result: toolResult(tool, { globalPath, workspacePath }, both, []), lines };
  }
  const pluginPath = paths.opencodePluginPath(env);
  const outcome = installPlugin(pluginPath, choice, dryRun, request.pluginGuards);
  const missing = request.extra === undefined ? [] : selectedGuards(request).filter((name) => !outcome.guards.includes(name));
  const lines = [...outcome.lines.slice(0, 1), ...guardLine(outcome.guards, dryRun), ...outcome.lines.slice(1)];
  if (missing.length > 0) lines.push(`  ⚠ OpenCode — no plugin hook for: ${missing.join(", ")} (OpenCode cannot block a stop, nor inject at session or sub-agent start).`);
  return { tool, outcome: [outcome], result: toolResult(tool, { pluginPath }, [outcome], outcome.guards), lines };
}

/** Every guard named by `--with` (any tool), catalogue order as given. */
function selectedGuards(request: InstallRequest): string[] {
  if (request.extra === undefined) return [];
  const names = Object.values(request.extra).flatMap((specs) => guardNamesOf(specs ?? []));
  return [...new Set([...names, ...(request.pluginGuards ?? [])])];
}

function footer(processed: readonly Processed[], guard: boolean, agent: string): string[] {
  const tools = processed.map((p) => p.tool);
  const lines = ["", "Hooks installed. From now on:"];
  if (guard && tools.includes("claude")) lines.push("  • Before each file write/edit → context:guard injects salient project-rule constraints");
  if (guard && tools.includes("copilot")) lines.push("  • Before each file write/edit (copilot) → context:guard injects salient project-rule constraints");
  if (guard && tools.includes("gemini")) lines.push("  • After each file write/edit (gemini) → context:guard adds the salient project rules to the tool result");
  lines.push(
    "  • Every file write/edit → logged as artifact event",
    "  • Every bash command → logged as step_done event",
    "  • /aioson:agent:<name> typed in a session → logged as agent_activated",
  );
  const doneTools = tools.filter((t) => t === "claude" || t === "antigravity" || t === "gemini" || t === "copilot");
  if (doneTools.length > 0) lines.push(`  • End of each turn → logged as agent:done (${doneTools.join(", ")})`);
  const endTools = tools.filter((t) => t === "claude" || t === "antigravity" || t === "codex" || t === "gemini" || t === "copilot");
  if (endTools.length > 0) lines.push(`  • End of a session → logged as session_ended, the hooks session is closed (${endTools.join(", ")})`);
  if (tools.some((t) => t === "claude" || t === "codex" || t === "opencode" || t === "gemini" || t === "copilot")) {
    lines.push("  • After a compaction → the session checkpoint comes back from the recorded events");
  }
  for (const p of processed) {
    if (p.result.guards) lines.push(`  • Guards (${p.tool}) → ${p.result.guards.join(", ")}`);
  }
  // What proves the hooks fire now (doctor runs each installed handler), then what shows the sessions once the agent
  // has run: right after the install, live:status has nothing to show yet.
  lines.push(
    "",
    "To verify that the hooks fire: aioson hooks:doctor",
    `To see the agent's session once it has run: aioson live:status . --agent=${agent}`,
    "To see every session: aioson dashboard",
    `To uninstall: aioson hooks:uninstall --tool=${tools.join(",")}`,
  );
  return lines;
}

export type Report<T> = { lines: string[]; result: T };

/** `--tool` as the list to process; `all` (or none) = the detected tools, the workspace's Copilot folder included. */
function installTools(request: Pick<InstallRequest, "tool" | "env" | "dir">): { tools: string[]; detected: boolean } {
  const listed = parseToolList(request.tool);
  if (listed !== null) return { tools: listed, detected: false };
  const tools: string[] = paths.detectTools(request.env);
  if (paths.copilotDetected(request.dir)) tools.push("copilot");
  return { tools, detected: true };
}

/** A workspace config: a project path under the install directory, written by src/core/project-fs.ts rules. */
const workspaceFile = (path: string, dir: string): ConfigFile => ({ path, project: dir });

/** The project files that processing these tools writes under `dir` (Antigravity's workspace file, Copilot's). */
function workspacePaths(tools: readonly string[], dir: string): string[] {
  const found: string[] = [];
  if (tools.includes("antigravity")) found.push(paths.antigravityWorkspacePath(dir));
  if (tools.includes("copilot")) found.push(paths.copilotHooksPath(dir));
  return found;
}

/** The project files `hooks:install` would write for this request (for `init` and `update` to check first). */
export function installWorkspacePaths(request: Pick<InstallRequest, "tool" | "env" | "dir">): string[] {
  return workspacePaths(installTools(request).tools, request.dir);
}

export function refusalLines(message: string): string[] {
  return [`Refused: ${message}.`, "Nothing was changed: aioson writes a project's files only inside the project, never through a symlink.", "Look at where it points; replace it with a plain file or folder (or remove it), then run the command again."];
}

export function runInstall(request: InstallRequest): Report<InstallResult> {
  const lines: string[] = [];
  const { tools, detected } = installTools(request);
  if (detected) {
    if (tools.length === 0) {
      lines.push("No supported AI tools detected. Install Claude Code, Antigravity, Codex, OpenCode or Gemini CLI first.");
      return { lines, result: { ok: false, reason: "no_tools_detected", dryRun: request.dryRun, results: [] } };
    }
    lines.push(`Detected tools: ${tools.join(", ")}`);
  }
  const unsafe = unsafeProjectPath(request.dir, workspacePaths(tools, request.dir));
  if (unsafe) return { lines: refusalLines(unsafe), result: { ok: false, reason: "unsafe_project_path", error: unsafe, dryRun: request.dryRun, results: [], exitCode: 1 } };
  const choice: AgentChoice = { explicitAgent: request.explicitAgent };
  const processed: Processed[] = [];
  const body: string[] = [];
  for (const tool of tools) {
    if (!isToolName(tool)) {
      body.push(unknownToolLine(tool));
      continue;
    }
    if (processed.some((p) => p.tool === tool)) continue;
    const done = processInstall(tool, request, choice);
    processed.push(done);
    body.push(...done.lines);
  }
  const fallback = resolveAgents(choice, { telemetry: null, guard: null });
  const agent = processed[0]?.outcome[0]?.agent ?? fallback.agent;
  const guardAgent = processed.find((p) => p.tool === "claude")?.outcome[0]?.guardAgent ?? fallback.guardAgent;
  lines.push(`Hooks Install — agent: @${agent}${request.dryRun ? " [dry-run]" : ""}`, RULE, ...body, RULE);
  const anyChange = processed.some((p) => p.result.changed);
  if (!request.dryRun && anyChange) lines.push(...footer(processed, request.guard, agent));
  else if (!request.dryRun && processed.length > 0 && processed.every((p) => !p.result.skipped && !p.result.error)) {
    lines.push("", "Nothing to do: the AIOSON hooks are already installed and up to date.");
  }
  const results = processed.map((p) => p.result);
  const failed = results.some((r) => r.skipped === "invalid-config" || r.skipped === "unreadable" || r.error !== undefined);
  const result: InstallResult = { ok: true, agentName: agent, guardAgent, dryRun: request.dryRun, results };
  if (failed) result.exitCode = 1;
  return { lines, result };
}

export type UninstallResultEntry =
  | { tool: string; scope?: "global" | "workspace"; path: string; removed: boolean; skipped?: string; error?: string }
  | { tool: string; removed: false; reason: "unsupported" };

export type UninstallResult = { ok: boolean; reason?: string; error?: string; dryRun: boolean; results: UninstallResultEntry[]; exitCode?: number };

export type UninstallRequest = { dir: string; cwd: string; tool: string | undefined; agent: string; dryRun: boolean; env: paths.Env };

function entry(tool: ToolName, outcome: UninstallOutcome, scope?: "global" | "workspace"): UninstallResultEntry {
  const base = { tool, ...(scope ? { scope } : {}), path: outcome.path, removed: outcome.removed };
  return { ...base, ...(outcome.skipped ? { skipped: outcome.skipped } : {}), ...(outcome.error ? { error: outcome.error } : {}) };
}

export function runUninstall(request: UninstallRequest): Report<UninstallResult> {
  const { env, dryRun } = request;
  // `all` takes Copilot's workspace file and Gemini's settings only when they are there (the four targets of spec
  // 9.12 are always reported).
  const present = (tool: ToolName) => (tool === "copilot" ? existsSync(paths.copilotHooksPath(request.dir)) : tool !== "gemini" || existsSync(paths.geminiSettingsPath(env)));
  const everything = TOOLS.filter(present);
  const raw = request.tool === undefined || request.tool.trim() === "" ? ["claude"] : parseToolList(request.tool) ?? everything;
  const unsafe = unsafeProjectPath(request.dir, workspacePaths(raw, request.dir));
  if (unsafe) return { lines: refusalLines(unsafe), result: { ok: false, reason: "unsafe_project_path", error: unsafe, dryRun, results: [], exitCode: 1 } };
  const body: string[] = [];
  const results: UninstallResultEntry[] = [];
  const seen = new Set<string>();
  for (const tool of raw) {
    if (seen.has(tool)) continue;
    seen.add(tool);
    if (!isToolName(tool)) {
      body.push(unknownToolLine(tool));
      results.push({ tool, removed: false, reason: "unsupported" });
      continue;
    }
    if (tool === "claude") {
      const path = paths.claudeSettingsPath(env);
      const outcome = uninstallJsonTarget(CLAUDE_LABEL, "settings", userConfig(path), path, dryRun, 0);
      body.push(...outcome.lines);
      results.push(entry(tool, outcome));
    } else if (tool === "codex") {
      const path = paths.codexHooksPath(env);
      const outcome = uninstallJsonTarget(CODEX_LABEL, "hooks", userConfig(path), path, dryRun, 0);
      body.push(...outcome.lines);
      results.push(entry(tool, outcome));
      const wrapper = paths.codexWrapperPath(env);
      if (existsSync(wrapper)) {
        if (dryRun) body.push(`  [dry-run] Would delete: ${wrapper}`);
        else {
          removeFile(wrapper);
          body.push(`  ✓ Removed obsolete ${wrapper}`);
        }
      }
    } else if (tool === "gemini") {
      const path = paths.geminiSettingsPath(env);
      const outcome = uninstallJsonTarget(GEMINI_LABEL, "settings", userConfig(path), path, dryRun, 0);
      body.push(...outcome.lines);
      results.push(entry(tool, outcome));
    } else if (tool === "antigravity") {
      const globalPath = paths.antigravityGlobalPath(env);
      const workspacePath = paths.antigravityWorkspacePath(request.dir);
      const global = uninstallJsonTarget(ANTIGRAVITY_GLOBAL_LABEL, "", userConfig(globalPath), globalPath, dryRun, 0);
      const workspace = uninstallJsonTarget(ANTIGRAVITY_WORKSPACE_LABEL, "", workspaceFile(workspacePath, request.dir), displayPath(workspacePath, request.cwd), dryRun, 1);
      body.push(...global.lines, ...workspace.lines);
      results.push(entry(tool, global, "global"), entry(tool, workspace, "workspace"));
    } else if (tool === "copilot") {
      const path = paths.copilotHooksPath(request.dir);
      // Our own file: deleted when only our handlers were in it, with `.github/hooks/` and `.github/` if left empty.
      const outcome = uninstallJsonTarget(COPILOT_LABEL, "hooks", workspaceFile(path, request.dir), displayPath(path, request.cwd), dryRun, 2);
      body.push(...outcome.lines);
      results.push(entry(tool, outcome));
    } else {
      const outcome = uninstallPlugin(paths.opencodePluginPath(env), dryRun);
      body.push(...outcome.lines);
      results.push(entry(tool, outcome));
    }
  }
  const lines = [`Hooks Uninstall — agent: @${request.agent}${dryRun ? " [dry-run]" : ""}`, RULE, ...body];
  const failed = results.some((r) => "path" in r && (r.skipped === "invalid-config" || r.skipped === "unreadable" || r.error !== undefined));
  const result: UninstallResult = { ok: true, dryRun, results };
  if (failed) result.exitCode = 1;
  return { lines, result };
}
