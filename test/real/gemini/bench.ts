/**
 * One Gemini CLI scenario's world: the pinned harness, a project with aioson's hooks installed by the real
 * `dist/aioson hooks:install --tool=gemini` into `~/.gemini/settings.json`, the scripted Gemini API server, and the
 * proofs: what aioson stored, what the model was sent, aioson's hook log.
 */
import { join } from "node:path";
import { expect } from "bun:test";
import { BenchWorld } from "../lib/bench.ts";
import { assertGeminiFinished, geminiDir, runGemini, writeGeminiSettings, type GeminiOptions, type GeminiRun } from "../lib/drivers/gemini.ts";
import { ensureInstalled } from "../lib/install.ts";
import { makeWorld } from "../lib/project.ts";
import { ModelServer, type ScriptOptions } from "../lib/server.ts";
import { geminiWire } from "../lib/wire/gemini.ts";

export type BenchOptions = { files?: Record<string, string>; git?: boolean; guards?: string[]; userSettings?: string };

export class GeminiBench extends BenchWorld<GeminiRun> {
  static async create(options: BenchOptions = {}): Promise<GeminiBench> {
    const bench = new GeminiBench(ensureInstalled("gemini"), makeWorld({ files: options.files, git: options.git }), new ModelServer(geminiWire, { turns: [] }));
    writeGeminiSettings(bench.world, options.userSettings);
    await bench.installHooks("gemini", "Gemini CLI", options.guards);
    return bench;
  }

  get settingsPath(): string {
    return join(geminiDir(this.world), "settings.json");
  }

  async run(options: GeminiOptions & { script?: ScriptOptions }): Promise<GeminiRun> {
    // No hook log of the harness's own says a hook failed: aioson's hook log must stay empty.
    return this.scripted(options.script, () => runGemini(this.install, this.world, this.server, options), (run) => {
      assertGeminiFinished(run);
      expect(this.hookLog()).toBe("");
    });
  }
}

/** The text of every function response (tool result, with what hooks appended) the harness sent in one request. */
export function functionResponses(body: unknown): string[] {
  const contents = (body as { contents?: Array<{ parts?: Array<{ functionResponse?: { response?: unknown } }> }> })?.contents ?? [];
  return contents.flatMap((content) => (content.parts ?? []).flatMap((part) => (part.functionResponse ? [JSON.stringify(part.functionResponse.response ?? {})] : [])));
}
