/**
 * One GitHub Copilot CLI scenario's world: the pinned harness, a project with `.github/hooks/aioson.json` written by
 * the real `dist/aioson hooks:install --tool=copilot` (the file VS Code reads too), the scripted Chat Completions
 * server, and the proofs: what aioson stored, what the model was sent, aioson's hook log.
 */
import { join } from "node:path";
import { expect } from "bun:test";
import { BenchWorld } from "../lib/bench.ts";
import { assertCopilotFinished, COPILOT_COMPACT_PROMPT, runCopilot, type CopilotOptions, type CopilotRun } from "../lib/drivers/copilot.ts";
import { ensureInstalled } from "../lib/install.ts";
import { makeWorld } from "../lib/project.ts";
import { ModelServer, type ScriptOptions } from "../lib/server.ts";
import { chatWire } from "../lib/wire/chat.ts";

export type BenchOptions = { files?: Record<string, string>; git?: boolean; guards?: string[] };

export class CopilotBench extends BenchWorld<CopilotRun> {
  static async create(options: BenchOptions = {}): Promise<CopilotBench> {
    const server = new ModelServer(chatWire({ compaction: COPILOT_COMPACT_PROMPT }), { turns: [] });
    const bench = new CopilotBench(ensureInstalled("copilot"), makeWorld({ files: options.files, git: options.git }), server);
    await bench.installHooks("copilot", "GitHub Copilot (VS Code, Copilot CLI)", options.guards);
    return bench;
  }

  get hooksFile(): string {
    return join(this.project, ".github", "hooks", "aioson.json");
  }

  async run(options: CopilotOptions & { script?: ScriptOptions }): Promise<CopilotRun> {
    // No hook log of the harness's own says a hook failed: aioson's hook log must stay empty.
    return this.scripted(options.script, () => runCopilot(this.install, this.world, this.server, options), (run) => {
      assertCopilotFinished(run);
      expect(this.hookLog()).toBe("");
    });
  }
}

/** The `role: "tool"` messages of one request (what the harness answered each tool call, with what hooks added). */
export function toolMessages(body: unknown): string[] {
  const messages = (body as { messages?: Array<{ role?: string; content?: unknown }> })?.messages ?? [];
  return messages.filter((message) => message.role === "tool").map((message) => (typeof message.content === "string" ? message.content : JSON.stringify(message.content ?? "")));
}
