/**
 * What every harness's scenario world shares: the installed pin, the world, the scripted model server and the runs
 * so far; aioson installed by the real `hooks:install`; readers for what aioson stored and for aioson's hook log (which
 * must stay empty where a harness has no hook log of its own to say a hook failed); the cleanup.
 * `test/real/<harness>/bench.ts` extends it with the harness's install, its runs and its own proofs.
 */
import { expect } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { InstalledHarness } from "./install.ts";
import { sweep, type RunResult } from "./processes.ts";
import { aioson, cleanupWorlds, events, ndjsonLines, type World } from "./project.ts";
import type { ModelServer, ScriptOptions } from "./server.ts";

export abstract class BenchWorld<Run> {
  readonly runs: Run[] = [];

  protected constructor(
    readonly install: InstalledHarness,
    readonly world: World,
    readonly server: ModelServer,
  ) {}

  get project(): string {
    return this.world.project;
  }

  aioson(args: readonly string[], stdin?: string): Promise<RunResult> {
    return aioson(this.world, args, { stdin });
  }

  /** `runtime:init` (guards and context:guard record only into a store), then `hooks:install --tool=<tool> [--with]`. */
  protected async installHooks(tool: string, label: string, guards: readonly string[] = []): Promise<void> {
    expect((await this.aioson(["runtime:init", "."])).code).toBe(0);
    const installed = await this.aioson(["hooks:install", `--tool=${tool}`, ...(guards.length ? [`--with=${guards.join(",")}`] : [])]);
    expect(installed.code).toBe(0);
    expect(installed.stdout).toContain(`✓ ${label} — `);
  }

  /** The rows aioson stored, oldest first. */
  events(where?: string, ...params: Array<string | number>) {
    return events(this.project, where, ...params);
  }

  ndjson() {
    return ndjsonLines(this.project);
  }

  hookLog(): string {
    const path = join(this.project, ".aioson", "runtime", "hooks.log");
    return existsSync(path) ? readFileSync(path, "utf8") : "";
  }

  /**
   * One harness run: the script is queued on the server first, what the run left behind is swept, and `check` says
   * whether it finished as it must (its error then names the requests the run made).
   */
  protected async scripted(script: ScriptOptions | undefined, start: () => Promise<Run>, check: (run: Run) => void): Promise<Run> {
    if (script) this.server.script(script);
    const from = this.server.requests.length;
    const run = await start();
    return this.finish(run, from, check);
  }

  /**
   * After one harness run: its processes gone, the requests shown with AIOSON_REAL_DEBUG, `check` run (its error names
   * the requests the run made).
   */
  protected finish(run: Run, from: number, check: (run: Run) => void): Run {
    sweep();
    this.runs.push(run);
    if (process.env.AIOSON_REAL_DEBUG) this.debug(run, from);
    try {
      check(run);
    } catch (error) {
      const requests = this.server.requests.slice(from).map((request) => `${request.kind}${request.lane ? `/${request.lane}` : ""}`);
      throw new Error(`${(error as Error).message}\nrequests: ${requests.join(" ")}`);
    }
    return run;
  }

  /** `AIOSON_REAL_DEBUG=1`: what a run's requests sent, on stderr; a harness adds what it reported. */
  protected debug(_run: Run, from: number): void {
    for (const request of this.server.requests.slice(from)) {
      console.error(`[request ${request.index} ${request.kind}${request.lane ? `/${request.lane}` : ""}] ${this.server.wire.lastSentText(request.body).slice(0, 300).replaceAll("\n", " ")}`);
    }
  }

  stop(): void {
    this.server.stop();
    sweep();
    cleanupWorlds();
  }
}
