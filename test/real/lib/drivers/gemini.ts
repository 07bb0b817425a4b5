/**
 * Drives Gemini CLI 0.61.0 offline (real-harnesses.md §0): `node bundle/gemini.js -m gemini-2.5-flash --yolo -o json
 * -p <prompt>` against the scripted server (`GOOGLE_GEMINI_BASE_URL`; the base-URL variable alone selects an auth
 * type headless mode rejects, so `~/.gemini/settings.json` selects `gemini-api-key`), the folder trusted through
 * `GEMINI_CLI_TRUST_WORKSPACE` (untrusted, every settings hook is skipped). `--resume latest` continues the session.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { InstalledHarness } from "../install.ts";
import { runTracked, type RunResult } from "../processes.ts";
import { baseEnv, type World } from "../project.ts";
import type { ModelServer } from "../server.ts";

export type GeminiRun = { result: RunResult; output: Record<string, unknown> | null; sessionId: string };
export type GeminiOptions = { prompt: string; resume?: boolean; env?: Record<string, string>; timeoutMs?: number };

/** Gemini's own settings a fresh install needs offline; hooks:install adds aioson's next to them. */
export const GEMINI_SETTINGS = `${JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" } }, privacy: { usageStatisticsEnabled: false }, telemetry: { enabled: false } }, null, 2)}\n`;

export function geminiDir(world: World): string {
  return join(world.home, ".gemini");
}

export function writeGeminiSettings(world: World, text = GEMINI_SETTINGS): void {
  mkdirSync(geminiDir(world), { recursive: true });
  writeFileSync(join(geminiDir(world), "settings.json"), text);
}

export function geminiEnv(world: World, server: ModelServer, extra: Record<string, string> = {}): Record<string, string> {
  return { ...baseEnv(world), GEMINI_API_KEY: "fake", GOOGLE_GEMINI_BASE_URL: server.url, GEMINI_CLI_TRUST_WORKSPACE: "true", ...extra };
}

export async function runGemini(install: InstalledHarness, world: World, server: ModelServer, options: GeminiOptions): Promise<GeminiRun> {
  const args = ["-m", "gemini-2.5-flash", "--yolo", "-o", "json", ...(options.resume ? ["--resume", "latest"] : []), "-p", options.prompt];
  const result = await runTracked([...install.command, ...args], { cwd: world.project, env: geminiEnv(world, server, options.env), timeoutMs: options.timeoutMs ?? 300_000 });
  let output: Record<string, unknown> | null = null;
  try {
    output = JSON.parse(result.stdout) as Record<string, unknown>;
  } catch {
    output = null;
  }
  return { result, output, sessionId: typeof output?.session_id === "string" ? output.session_id : "" };
}

/** A run that must have finished by itself, with no hook reported as failing. */
export function assertGeminiFinished(run: GeminiRun): void {
  if (run.result.timedOut) throw new Error(`gemini timed out after ${run.result.ms} ms\nstderr: ${run.result.stderr.slice(-2_000)}`);
  if (run.result.code !== 0) throw new Error(`gemini exited ${run.result.code} (${run.result.signal})\nstderr: ${run.result.stderr.slice(-2_000)}\nstdout: ${run.result.stdout.slice(-2_000)}`);
}
