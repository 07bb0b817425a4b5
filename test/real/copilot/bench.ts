/**
 * One GitHub Copilot CLI scenario's world: the pinned harness, a project with `.github/hooks/aioson.json` written by
 * the real `dist/aioson hooks:install --tool=copilot` (the file VS Code reads too), the scripted Chat Completions
 * server, and the proofs: what aioson stored, what the model was sent, aioson's hook log.
 */
import { expect } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { assertCopilotFinished, COPILOT_COMPACT_PROMPT, runCopilot, type CopilotOptions, type CopilotRun } from "../lib/drivers/copilot.ts";
import { ensureInstalled, type InstalledHarness } from "../lib/install.ts";
import { sweep, type RunResult } from "../lib/processes.ts";
import { aioson, cleanupWorlds, events, makeWorld, type World } from "../lib/project.ts";
import { ModelServer, type ScriptOptions } from "../lib/server.ts";
import { chatWire } from "../lib/wire/chat.ts";

export type BenchOptions = { files?: Record<string, string>; git?: boolean; guards?: string[] };

export class CopilotBench {
  readonly server = new ModelServer(chatWire({ compactPrompt: COPILOT_COMPACT_PROMPT }), { turns: [] });
  readonly runs: CopilotRun[] = [];

  private constructor(
    readonly install: InstalledHarness,
    readonly world: World,
  ) {}

  static async create(options: BenchOptions = {}): Promise<CopilotBench> {
    const bench = new CopilotBench(ensureInstalled("copilot"), makeWorld({ files: options.files, git: options.git }));
    expect((await bench.aioson(["runtime:init", "."])).code).toBe(0);
    const installed = await bench.aioson(["hooks:install", "--tool=copilot", ...(options.guards?.length ? [`--with=${options.guards.join(",")}`] : [])]);
    expect(installed.code).toBe(0);
    expect(installed.stdout).toContain("✓ GitHub Copilot (VS Code, Copilot CLI) — ");
    return bench;
  }

  get project(): string {
    return this.world.project;
  }

  get hooksFile(): string {
    return join(this.project, ".github", "hooks", "aioson.json");
  }

  aioson(args: readonly string[], stdin?: string): Promise<RunResult> {
    return aioson(this.world, args, { stdin });
  }

  async run(options: CopilotOptions & { script?: ScriptOptions }): Promise<CopilotRun> {
    if (options.script) this.server.script(options.script);
    const from = this.server.requests.length;
    const run = await runCopilot(this.install, this.world, this.server, options);
    sweep();
    this.runs.push(run);
    if (process.env.AIOSON_REAL_DEBUG) for (const request of this.server.requests.slice(from)) console.error(`[request ${request.index} ${request.kind}${request.lane ? `/${request.lane}` : ""}] ${this.server.wire.lastSentText(request.body).slice(0, 300).replaceAll("\n", " ")}`);
    assertCopilotFinished(run);
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

/** The `role: "tool"` messages of one request (what the harness answered each tool call, with what hooks added). */
export function toolMessages(body: unknown): string[] {
  const messages = (body as { messages?: Array<{ role?: string; content?: unknown }> })?.messages ?? [];
  return messages.filter((message) => message.role === "tool").map((message) => (typeof message.content === "string" ? message.content : JSON.stringify(message.content ?? "")));
}
