/**
 * Drives GitHub Copilot CLI 1.0.102 offline (real-harnesses.md §0): `copilot --no-auto-update --allow-all-tools
 * --trust-folder -p <prompt>` with `COPILOT_OFFLINE` and a custom provider on the scripted Chat Completions server
 * (no GitHub login). `--trust-folder` is what lets `-p` load the repository's `.github/hooks`. The runtime it unpacks
 * on first start goes to `$COPILOT_PKG_CACHE_HOME`, kept in the bench cache so that only the first run pays it.
 */
import { join } from "node:path";
import { cacheRoot, type InstalledHarness } from "../install.ts";
import { runTracked, type RunResult } from "../processes.ts";
import { baseEnv, type World } from "../project.ts";
import type { ModelServer } from "../server.ts";

export type CopilotRun = { result: RunResult };
export type CopilotOptions = { prompt: string; resume?: string; env?: Record<string, string>; timeoutMs?: number };

/** Copilot CLI's compaction request: the summary prompt it sends while it compacts in the background. */
export const COPILOT_COMPACT_PROMPT = /history is being compacted/i;

export function copilotEnv(world: World, server: ModelServer, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...baseEnv(world),
    COPILOT_OFFLINE: "true",
    COPILOT_PROVIDER_BASE_URL: `${server.url}/v1`,
    COPILOT_PROVIDER_API_KEY: "fake",
    COPILOT_MODEL: "gpt-4.1",
    COPILOT_AUTO_UPDATE: "false",
    COPILOT_PKG_CACHE_HOME: join(cacheRoot(), "copilot-pkg"),
    ...extra,
  };
}

export async function runCopilot(install: InstalledHarness, world: World, server: ModelServer, options: CopilotOptions): Promise<CopilotRun> {
  const args = ["--no-auto-update", "--allow-all-tools", "--trust-folder", ...(options.resume ? [`--resume=${options.resume}`] : []), "-p", options.prompt];
  const result = await runTracked([...install.command, ...args], { cwd: world.project, env: copilotEnv(world, server, options.env), timeoutMs: options.timeoutMs ?? 300_000 });
  return { result };
}

export function assertCopilotFinished(run: CopilotRun): void {
  if (run.result.timedOut) throw new Error(`copilot timed out after ${run.result.ms} ms\nstderr: ${run.result.stderr.slice(-2_000)}`);
  if (run.result.code !== 0) throw new Error(`copilot exited ${run.result.code} (${run.result.signal})\nstderr: ${run.result.stderr.slice(-2_000)}\nstdout: ${run.result.stdout.slice(-2_000)}`);
}
