/**
 * One OpenCode scenario's world: the pinned harness, a project with the plugin written by the real
 * `dist/aioson hooks:install --tool=opencode`, the plugin folder seeded with `@opencode-ai/plugin`, the scripted
 * Chat Completions server, and the proofs every scenario checks — what aioson stored, what the model was sent,
 * which aioson processes the plugin started (an `AIOSON_BIN` wrapper that notes each call, when asked).
 */
import { expect } from "bun:test";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { assertFinished, opencodeConfigDir, opencodeEnv, opencodeWire, OpencodeServe, runOpencode, seedPluginPackage, writeOpencodeConfig, type OpencodeOptions, type OpencodeRun } from "../lib/drivers/opencode.ts";
import { ensureInstalled, type InstalledHarness } from "../lib/install.ts";
import type { RunResult } from "../lib/processes.ts";
import { BenchWorld } from "../lib/bench.ts";
import { aioson, makeWorld, type World } from "../lib/project.ts";
import { ModelServer, type ScriptOptions } from "../lib/server.ts";
import { toolResults, type ToolResult } from "../lib/wire/chat.ts";

export const CHECKPOINT = "[AIOSON checkpoint]";

export type BenchOptions = {
  files?: Record<string, string>;
  git?: boolean;
  /** `hooks:install --with=` guards. */
  guards?: string[];
};

/** One aioson call the plugin made, as the counting wrapper noted it. */
export type Call = { command: string; startedMs: number; endedMs: number | null };

export class OpencodeBench extends BenchWorld<OpencodeRun> {
  private constructor(install: InstalledHarness, world: World) {
    super(install, world, new ModelServer(opencodeWire, { turns: [] }));
  }

  static async create(options: BenchOptions = {}): Promise<OpencodeBench> {
    const bench = new OpencodeBench(ensureInstalled("opencode"), makeWorld({ files: options.files, git: options.git }));
    writeOpencodeConfig(bench.world, bench.server);
    // A project as `aioson init` leaves it: the store exists (guards record only into one).
    expect((await bench.aioson(["runtime:init", "."])).code).toBe(0);
    const installed = await bench.aioson(["hooks:install", "--tool=opencode", ...(options.guards?.length ? [`--with=${options.guards.join(",")}`] : [])]);
    expect(installed.code).toBe(0);
    expect(installed.stdout).toContain(`✓ OpenCode plugin — ${bench.pluginPath}`);
    seedPluginPackage(bench.install, bench.configDir);
    return bench;
  }

  get configDir(): string {
    return opencodeConfigDir(this.world);
  }

  get pluginPath(): string {
    return join(this.configDir, "plugins", "aioson.js");
  }

  /** aioson as a person runs it in this world (the XDG folders OpenCode uses). */
  override aioson(args: readonly string[], stdin?: string): Promise<RunResult> {
    return aioson(this.world, args, { env: opencodeEnv(this.world), stdin });
  }

  /** One `opencode run` that must finish by itself; the script is queued on the server first. */
  run(options: OpencodeOptions & { script?: ScriptOptions }): Promise<OpencodeRun> {
    return this.scripted(options.script, () => runOpencode(this.install, this.world, options), assertFinished);
  }

  serve(env: Record<string, string> = {}): Promise<OpencodeServe> {
    return OpencodeServe.start(this.install, this.world, { env });
  }

  /** What each request sent last, and how the run ended. */
  protected override debug(run: OpencodeRun, from: number): void {
    for (const request of this.server.requests.slice(from)) {
      console.error(`[request ${request.index} ${request.kind}${request.lane ? `/${request.lane}` : ""}] ${opencodeWire.lastSentText(request.body).slice(0, 300).replaceAll("\n", " ")}`);
    }
    console.error(`[opencode] exit ${run.result.code} in ${run.result.ms} ms; session ${run.sessionId}`);
  }

  /**
   * An `AIOSON_BIN` that notes every call (start, end, command) and then runs the real aioson — after `delay`
   * seconds when asked (a slowed aioson). Returns the environment that selects it.
   */
  countingAioson(name: string, delay = 0): { env: Record<string, string>; calls: () => Call[] } {
    const log = join(this.world.root, `${name}.calls`);
    const script = join(this.world.bin, `${name}.sh`);
    const real = join(this.world.bin, "aioson");
    writeFileSync(script, `#!/bin/sh\nstart=$(date +%s%3N)\n${delay > 0 ? `sleep ${delay}\n` : ""}"${real}" "$@"\ncode=$?\necho "$start $(date +%s%3N) $1" >> "${log}"\nexit $code\n`);
    chmodSync(script, 0o755);
    const calls = (): Call[] =>
      existsSync(log)
        ? readFileSync(log, "utf8").trim().split("\n").filter(Boolean).map((line) => {
            const [start, end, command] = line.split(" ");
            return { command: command ?? "", startedMs: Number(start), endedMs: end ? Number(end) : null };
          })
        : [];
    return { env: { AIOSON_BIN: script }, calls };
  }

}

/** The tool result OpenCode sent for a tool call id (what the model read back), from any request. */
export function toolResultFor(server: ModelServer, callId: string): ToolResult | null {
  for (const request of server.modelRequests()) {
    const found = toolResults(request.body).find((result) => result.id === callId);
    if (found) return found;
  }
  return null;
}

/** How often `text` occurs in `haystack`. */
export function occurrences(haystack: string, text: string): number {
  return haystack.split(text).length - 1;
}
