/**
 * One Codex CLI scenario's world: the pinned harness, a project with aioson's hooks installed by the real
 * `dist/aioson hooks:install --tool=codex` in an isolated CODEX_HOME, the scripted Responses server, and the proofs
 * every scenario checks — which aioson hooks Codex ran and how they exited (the shim's log), what aioson stored,
 * what the model was sent.
 */
import { expect } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { assertFinished, codexHome, CodexTui, installAiosonShim, runCodexExec, writeCodexConfig, type CodexOptions, type CodexRun, type HookRun } from "../lib/drivers/codex.ts";
import { ensureInstalled, type InstalledHarness } from "../lib/install.ts";
import { sweep, type RunResult } from "../lib/processes.ts";
import { aioson, cleanupWorlds, events, makeWorld, ndjsonLines, type World } from "../lib/project.ts";
import { ModelServer, type LoggedRequest, type ScriptOptions } from "../lib/server.ts";
import { responsesWire } from "../lib/wire/responses.ts";

export type BenchOptions = {
  files?: Record<string, string>;
  git?: boolean;
  /** The user's hooks.json before aioson touches it (the uninstall must give these bytes back). */
  userHooks?: string;
  /** Run `hooks:install --tool=codex` at creation (default true). */
  install?: boolean;
};

export class CodexBench {
  readonly install: InstalledHarness;
  readonly world: World;
  readonly server: ModelServer;
  readonly runs: CodexRun[] = [];
  #tuis: CodexTui[] = [];

  private constructor(install: InstalledHarness, world: World) {
    this.install = install;
    this.world = world;
    this.server = new ModelServer(responsesWire, { turns: [] });
  }

  static async create(options: BenchOptions = {}): Promise<CodexBench> {
    const bench = new CodexBench(ensureInstalled("codex"), makeWorld({ files: options.files, git: options.git }));
    mkdirSync(bench.home, { recursive: true });
    writeCodexConfig(bench.world, bench.server);
    installAiosonShim(bench.world);
    if (options.userHooks !== undefined) writeFileSync(bench.hooksPath, options.userHooks);
    expect((await bench.aioson(["runtime:init", "."])).code).toBe(0);
    if (options.install !== false) {
      const installed = await bench.aioson(["hooks:install", "--tool=codex"]);
      expect(installed.code).toBe(0);
      expect(installed.stdout).toContain("✓ Codex — ");
    }
    return bench;
  }

  get project(): string {
    return this.world.project;
  }

  get home(): string {
    return codexHome(this.world);
  }

  get hooksPath(): string {
    return join(this.home, "hooks.json");
  }

  /** aioson as a person runs it in this world (the same CODEX_HOME the harness uses). */
  aioson(args: readonly string[], stdin?: string): Promise<RunResult> {
    return aioson(this.world, args, { env: { CODEX_HOME: this.home }, stdin });
  }

  /** One `codex exec` that must finish by itself; the script is queued on the server first. */
  async run(options: CodexOptions & { script?: ScriptOptions }): Promise<CodexRun> {
    if (options.script) this.server.script(options.script);
    const from = this.server.requests.length;
    const run = await runCodexExec(this.install, this.world, options);
    sweep();
    this.runs.push(run);
    if (process.env.AIOSON_REAL_DEBUG) this.#debug(run, from);
    assertFinished(run);
    // Every aioson hook exits 0: a hook is never what breaks the agent.
    expect(run.hooks.filter((hook) => hook.status !== 0)).toEqual([]);
    return run;
  }

  #debug(run: CodexRun, from: number): void {
    for (const request of this.server.requests.slice(from)) console.error(`[request ${request.index} ${request.kind}] ${responsesWire.lastSentText(request.body).slice(0, 300).replaceAll("\n", " ")}`);
    for (const hook of run.hooks) console.error(`[hook] ${hook.event} → ${hook.status} ${hook.args}`);
    console.error(`[codex] exit ${run.result.code} in ${run.result.ms} ms; stderr ${run.result.stderr.slice(-500)}`);
  }

  /** The Codex TUI of this world (stopped with the bench). */
  tui(): CodexTui {
    const tui = new CodexTui(this.install, this.world);
    this.#tuis.push(tui);
    return tui;
  }

  events(where?: string, ...params: Array<string | number>) {
    return events(this.project, where, ...params);
  }

  ndjson() {
    return ndjsonLines(this.project);
  }

  readHooks(): string {
    return readFileSync(this.hooksPath, "utf8");
  }

  stop(): void {
    for (const tui of this.#tuis) tui.stop();
    this.server.stop();
    sweep();
    cleanupWorlds();
  }
}

/** Codex ran this aioson hook: at least one run of `event` whose argv holds `needle`. */
export function ran(run: CodexRun, event: string, needle: string): HookRun[] {
  const found = run.hooks.filter((hook) => hook.event === event && hook.args.includes(needle));
  expect({ event, needle, runs: found.length > 0 }).toEqual({ event, needle, runs: true });
  return found;
}

/** The model requests whose content holds `text`. */
export function sent(server: ModelServer, text: string): LoggedRequest[] {
  return server.sentContaining(text);
}

export function readIfExists(path: string): string | null {
  return existsSync(path) ? readFileSync(path, "utf8") : null;
}
