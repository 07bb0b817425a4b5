/**
 * One Claude Code scenario's world: the pinned harness, a project with aioson's hooks installed by the real
 * `dist/aioson hooks:install --tool=claude`, the scripted Anthropic server, and the three kinds of proof every
 * scenario checks — the harness's own hook log, what aioson stored, what the model was sent.
 */
import { expect } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { assertFinished, claudeConfigDir, runClaude, type ClaudeOptions, type ClaudeRun, type HookRun } from "../lib/drivers/claude.ts";
import { ensureInstalled, type InstalledHarness } from "../lib/install.ts";
import type { RunResult } from "../lib/processes.ts";
import { BenchWorld } from "../lib/bench.ts";
import { aioson, makeWorld, type World } from "../lib/project.ts";
import { ModelServer, type LoggedRequest, type ScriptOptions } from "../lib/server.ts";
import { anthropicWire, lastToolResults, toolResults, type ToolResult } from "../lib/wire/anthropic.ts";

export { capture } from "../lib/server.ts";

export type BenchOptions = {
  files?: Record<string, string>;
  git?: boolean;
  /** `hooks:install --with=` guards. */
  guards?: string[];
  /** The user's settings.json before aioson touches it (the uninstall must give these bytes back). */
  userSettings?: string;
};

export class ClaudeBench extends BenchWorld<ClaudeRun> {
  private constructor(install: InstalledHarness, world: World) {
    super(install, world, new ModelServer(anthropicWire, { turns: [] }));
  }

  static async create(options: BenchOptions = {}): Promise<ClaudeBench> {
    const bench = new ClaudeBench(ensureInstalled("claude"), makeWorld({ files: options.files, git: options.git }));
    mkdirSync(bench.configDir, { recursive: true });
    if (options.userSettings !== undefined) writeFileSync(bench.settingsPath, options.userSettings);
    // A project as `aioson init` leaves it: the store exists (guards and context:guard record only into one).
    expect((await bench.aioson(["runtime:init", "."])).code).toBe(0);
    const installed = await bench.aioson(["hooks:install", "--tool=claude", ...(options.guards?.length ? [`--with=${options.guards.join(",")}`] : [])]);
    expect(installed.code).toBe(0);
    expect(installed.stdout).toContain("✓ Claude Code — ");
    return bench;
  }

  get configDir(): string {
    return claudeConfigDir(this.world);
  }

  get settingsPath(): string {
    return join(this.configDir, "settings.json");
  }

  /** aioson as a person runs it in this world (the same CLAUDE_CONFIG_DIR the harness uses). */
  override aioson(args: readonly string[], stdin?: string): Promise<RunResult> {
    return aioson(this.world, args, { env: { CLAUDE_CONFIG_DIR: this.configDir }, stdin });
  }

  /** One `claude -p` run that must finish by itself; the script is queued on the server first. */
  async run(options: ClaudeOptions & { script?: ScriptOptions }): Promise<ClaudeRun> {
    const run = await this.scripted(options.script, () => runClaude(this.install, this.world, this.server, options), assertFinished);
    // Every aioson hook exits 0 in the harness's own log: a hook is never what breaks the agent.
    const failed = run.hooks.filter((hook) => /\baioson\b/.test(hook.command) && hook.status !== 0).map((hook) => `${hook.event}:${hook.query} [${hook.command}] → ${hook.status}`);
    expect(failed).toEqual([]);
    return run;
  }

  /** What each request sent back (tool results) and which hooks ran. */
  protected override debug(run: ClaudeRun, from: number): void {
    for (const request of this.server.requests.slice(from)) {
      const results = lastToolResults(request.body).map((result) => `${result.isError ? "ERROR " : ""}${result.text.slice(0, 300).replaceAll("\n", " ")}`);
      console.error(`[request ${request.index} ${request.kind}${request.lane ? `/${request.lane}` : ""}] ${results.join(" | ") || anthropicWire.lastSentText(request.body).slice(0, 300).replaceAll("\n", " ")}`);
    }
    for (const hook of run.hooks) console.error(`[hook] ${hook.event}:${hook.query} → ${hook.status} (${hook.ms} ms) ${hook.command.slice(0, 80)}`);
    console.error(`[claude] exit ${run.result.code} in ${run.result.ms} ms; debug log ${run.debug.length} chars`);
  }
}

/** The harness ran this hook (its debug log): at least one run of `event` (and `query`) whose command holds `needle`. */
export function ran(run: ClaudeRun, event: string, needle: string, query?: string): HookRun[] {
  const found = run.hooks.filter((hook) => hook.event === event && hook.command.includes(needle) && (query === undefined || hook.query === query));
  expect({ event, query: query ?? "*", needle, runs: found.length > 0 }).toEqual({ event, query: query ?? "*", needle, runs: true });
  return found;
}

/** The model requests (turns) whose content holds `text`. */
export function sent(server: ModelServer, text: string): LoggedRequest[] {
  return server.sentContaining(text);
}

/** The tool result the harness sent for a tool call id (what the model read back), from any request. */
export function toolResultFor(server: ModelServer, toolUseId: string): ToolResult | null {
  for (const request of server.modelRequests()) {
    const found = toolResults(request.body).find((result) => result.id === toolUseId);
    if (found) return found;
  }
  return null;
}

export function readIfExists(path: string): string | null {
  return existsSync(path) ? readFileSync(path, "utf8") : null;
}
