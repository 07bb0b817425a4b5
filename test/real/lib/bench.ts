/**
 * What a scenario world of a harness without a hook log of its own (Gemini CLI, Copilot CLI) shares: aioson installed
 * by the real `hooks:install`, the scripted server, the stored rows, and aioson's hook log — which must stay empty,
 * the proof that no hook failed where the harness would not say.
 */
import { expect } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { InstalledHarness } from "./install.ts";
import { sweep, type RunResult } from "./processes.ts";
import { aioson, cleanupWorlds, events, type World } from "./project.ts";
import type { ModelServer } from "./server.ts";

export abstract class HarnessBench<Run> {
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

  /** After one harness run: its processes gone, the requests shown with AIOSON_REAL_DEBUG, the run finished, no hook failure logged. */
  protected finish(run: Run, from: number, assertFinished: (run: Run) => void): Run {
    sweep();
    this.runs.push(run);
    if (process.env.AIOSON_REAL_DEBUG) {
      for (const request of this.server.requests.slice(from)) console.error(`[request ${request.index} ${request.kind}${request.lane ? `/${request.lane}` : ""}] ${this.server.wire.lastSentText(request.body).slice(0, 300).replaceAll("\n", " ")}`);
    }
    assertFinished(run);
    expect(this.hookLog()).toBe("");
    return run;
  }

  events(where?: string, ...params: Array<string | number>) {
    return events(this.project, where, ...params);
  }

  hookLog(): string {
    const path = join(this.project, ".aioson", "runtime", "hooks.log");
    return existsSync(path) ? readFileSync(path, "utf8") : "";
  }

  stop(): void {
    this.server.stop();
    sweep();
    cleanupWorlds();
  }
}
