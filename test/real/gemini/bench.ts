/**
 * One Gemini CLI scenario's world: the pinned harness, a project with aioson's hooks installed by the real
 * `dist/aioson hooks:install --tool=gemini` into `~/.gemini/settings.json`, the scripted Gemini API server, and the
 * proofs: what aioson stored, what the model was sent, aioson's hook log.
 */
import { expect } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { assertGeminiFinished, geminiDir, runGemini, writeGeminiSettings, type GeminiOptions, type GeminiRun } from "../lib/drivers/gemini.ts";
import { ensureInstalled, type InstalledHarness } from "../lib/install.ts";
import { sweep, type RunResult } from "../lib/processes.ts";
import { aioson, cleanupWorlds, events, makeWorld, type World } from "../lib/project.ts";
import { ModelServer, type ScriptOptions } from "../lib/server.ts";
import { geminiWire } from "../lib/wire/gemini.ts";

export type BenchOptions = { files?: Record<string, string>; git?: boolean; guards?: string[]; userSettings?: string };

export class GeminiBench {
  readonly server = new ModelServer(geminiWire, { turns: [] });
  readonly runs: GeminiRun[] = [];

  private constructor(
    readonly install: InstalledHarness,
    readonly world: World,
  ) {}

  static async create(options: BenchOptions = {}): Promise<GeminiBench> {
    const bench = new GeminiBench(ensureInstalled("gemini"), makeWorld({ files: options.files, git: options.git }));
    writeGeminiSettings(bench.world, options.userSettings);
    expect((await bench.aioson(["runtime:init", "."])).code).toBe(0);
    const installed = await bench.aioson(["hooks:install", "--tool=gemini", ...(options.guards?.length ? [`--with=${options.guards.join(",")}`] : [])]);
    expect(installed.code).toBe(0);
    expect(installed.stdout).toContain("✓ Gemini CLI — ");
    return bench;
  }

  get project(): string {
    return this.world.project;
  }

  get settingsPath(): string {
    return join(geminiDir(this.world), "settings.json");
  }

  aioson(args: readonly string[], stdin?: string): Promise<RunResult> {
    return aioson(this.world, args, { stdin });
  }

  async run(options: GeminiOptions & { script?: ScriptOptions }): Promise<GeminiRun> {
    if (options.script) this.server.script(options.script);
    const from = this.server.requests.length;
    const run = await runGemini(this.install, this.world, this.server, options);
    sweep();
    this.runs.push(run);
    if (process.env.AIOSON_REAL_DEBUG) for (const request of this.server.requests.slice(from)) console.error(`[request ${request.index} ${request.kind}${request.lane ? `/${request.lane}` : ""}] ${geminiWire.lastSentText(request.body).slice(0, 300).replaceAll("\n", " ")}`);
    assertGeminiFinished(run);
    // A hook is never what breaks the agent: aioson logged no failure of its own.
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

/** The text of every function response (tool result, with what hooks appended) the harness sent in one request. */
export function functionResponses(body: unknown): string[] {
  const contents = (body as { contents?: Array<{ parts?: Array<{ functionResponse?: { response?: unknown } }> }> })?.contents ?? [];
  return contents.flatMap((content) => (content.parts ?? []).flatMap((part) => (part.functionResponse ? [JSON.stringify(part.functionResponse.response ?? {})] : [])));
}
