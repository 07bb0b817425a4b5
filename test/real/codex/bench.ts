/**
 * One Codex CLI scenario's world: the pinned harness, a project with aioson's hooks installed by the real
 * `dist/aioson hooks:install --tool=codex` in an isolated CODEX_HOME, the scripted Responses server, and the proofs
 * every scenario checks — which aioson hooks Codex ran and how they exited (the shim's log, drivers/codex.ts), what
 * aioson stored, what the model was sent, aioson's hook log (empty).
 */
import { expect } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BenchWorld } from "../lib/bench.ts";
import { assertFinished, codexHome, CodexTui, installAiosonShim, runCodexExec, writeCodexConfig, type CodexOptions, type CodexRun, type HookRun } from "../lib/drivers/codex.ts";
import { ensureInstalled } from "../lib/install.ts";
import type { RunResult } from "../lib/processes.ts";
import { aioson, makeWorld } from "../lib/project.ts";
import { ModelServer, type ScriptOptions } from "../lib/server.ts";
import { responsesWire } from "../lib/wire/responses.ts";

export type BenchOptions = {
  files?: Record<string, string>;
  git?: boolean;
  /** The user's hooks.json before aioson touches it. */
  userHooks?: string;
  /** Run `hooks:install --tool=codex` at creation (default true). */
  install?: boolean;
};

export class CodexBench extends BenchWorld<CodexRun> {
  #tuis: CodexTui[] = [];

  static async create(options: BenchOptions = {}): Promise<CodexBench> {
    const bench = new CodexBench(ensureInstalled("codex"), makeWorld({ files: options.files, git: options.git }), new ModelServer(responsesWire, { turns: [] }));
    mkdirSync(bench.home, { recursive: true });
    writeCodexConfig(bench.world, bench.server);
    installAiosonShim(bench.world);
    if (options.userHooks !== undefined) writeFileSync(bench.hooksPath, options.userHooks);
    if (options.install === false) expect((await bench.aioson(["runtime:init", "."])).code).toBe(0);
    else await bench.installHooks("codex", "Codex");
    return bench;
  }

  get home(): string {
    return codexHome(this.world);
  }

  get hooksPath(): string {
    return join(this.home, "hooks.json");
  }

  /** aioson as a person runs it in this world (the same CODEX_HOME the harness uses). */
  override aioson(args: readonly string[], stdin?: string): Promise<RunResult> {
    return aioson(this.world, args, { env: { CODEX_HOME: this.home }, stdin });
  }

  /**
   * One `codex exec` that must finish by itself, every aioson hook of it exiting 0 (the shim's log) and none logging a
   * problem (aioson's hook log stays empty); the script is queued first.
   */
  run(options: CodexOptions & { script?: ScriptOptions }): Promise<CodexRun> {
    return this.scripted(options.script, () => runCodexExec(this.install, this.world, options), (run) => {
      assertFinished(run);
      expect(run.hooks.filter((hook) => hook.status !== 0)).toEqual([]);
      expect(this.hookLog()).toBe("");
    });
  }

  /** The Codex TUI of this world (stopped with the bench). */
  tui(): CodexTui {
    const tui = new CodexTui(this.install, this.world);
    this.#tuis.push(tui);
    return tui;
  }

  readHooks(): string {
    return readFileSync(this.hooksPath, "utf8");
  }

  override stop(): void {
    for (const tui of this.#tuis) tui.stop();
    super.stop();
  }
}

/** Codex ran this aioson hook: at least one run of `event` whose argv holds `needle`. */
export function ran(run: CodexRun, event: string, needle: string): HookRun[] {
  const found = run.hooks.filter((hook) => hook.event === event && hook.args.includes(needle));
  expect({ event, needle, runs: found.length > 0 }).toEqual({ event, needle, runs: true });
  return found;
}

export function readIfExists(path: string): string | null {
  return existsSync(path) ? readFileSync(path, "utf8") : null;
}
