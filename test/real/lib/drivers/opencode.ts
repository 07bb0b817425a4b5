/**
 * Drives OpenCode offline (real-harnesses.md §0, §3): the four XDG folders inside the world's HOME, models.dev,
 * autoupdate and LSP downloads off, an `opencode.json` whose `fake` provider (`@ai-sdk/openai-compatible`, bundled)
 * points at the scripted Chat Completions server, every permission `allow`. `opencode run --format json
 * --print-logs` for one turn; `opencode serve` plus its HTTP API for what only the TUI does (`/compact` is
 * `POST /session/{id}/summarize`).
 *
 * At startup OpenCode installs `@opencode-ai/plugin@<its version>` into every config folder that holds plugins and
 * waits for it (about 7 s from the registry): the folder is seeded from the bench's cache instead — `node_modules`
 * linked to the cached install, and the `package.json`/`package-lock.json` entries OpenCode compares to decide the
 * folder is up to date (packages/opencode Npm.install: install when `node_modules` is missing or a dependency of
 * `package.json` is not in the lock's root package).
 */
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensurePackage, type InstalledHarness } from "../install.ts";
import { jsonLines, runTracked, startTracked, type RunResult, type Tracked } from "../processes.ts";
import { baseEnv, type World } from "../project.ts";
import type { ModelServer } from "../server.ts";
import { chatWire } from "../wire/chat.ts";

/** OpenCode's requests: its compaction agent's system prompt and summary request; the title agent is a side call. */
export const opencodeWire = chatWire({
  compaction: /You are a context summarization agent|Create a new anchored summary from the conversation history/,
  side: /You are a title generator/,
  sideText: "Bench session",
});

export const PROVIDER = "fake";
/** A model id without `gpt-` gets `write`/`edit`; one with it gets `apply_patch` instead (real-harnesses §0). */
export const MODEL = "bench-model";
export const PATCH_MODEL = "gpt-5.5-bench";
/** The models' context window: a reply reporting more input tokens makes OpenCode compact. */
export const CONTEXT_LIMIT = 100_000;

export type OpencodeDirs = { config: string; data: string; cache: string; state: string };

export function opencodeDirs(world: World): OpencodeDirs {
  return { config: join(world.home, ".config"), data: join(world.home, ".local", "share"), cache: join(world.home, ".cache"), state: join(world.home, ".local", "state") };
}

/** The global config folder: `opencode.json`, and `plugins/aioson.js` once hooks:install ran. */
export function opencodeConfigDir(world: World): string {
  return join(opencodeDirs(world).config, "opencode");
}

/** The environment of real-harnesses.md §0. */
export function opencodeEnv(world: World, extra: Record<string, string> = {}): Record<string, string> {
  const dirs = opencodeDirs(world);
  return {
    ...baseEnv(world),
    XDG_CONFIG_HOME: dirs.config,
    XDG_DATA_HOME: dirs.data,
    XDG_CACHE_HOME: dirs.cache,
    XDG_STATE_HOME: dirs.state,
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    ...extra,
  };
}

/** `opencode.json` with the fake provider (both models) and every permission allowed. */
export function writeOpencodeConfig(world: World, server: ModelServer): void {
  const model = (id: string) => ({ name: id, tool_call: true, limit: { context: CONTEXT_LIMIT, output: 8_000 } });
  const config = {
    $schema: "https://opencode.ai/config.json",
    model: `${PROVIDER}/${MODEL}`,
    small_model: `${PROVIDER}/${MODEL}`,
    autoupdate: false,
    share: "disabled",
    provider: {
      [PROVIDER]: {
        npm: "@ai-sdk/openai-compatible",
        name: "Bench",
        options: { baseURL: `${server.url}/v1`, apiKey: "fake" },
        models: { [MODEL]: model(MODEL), [PATCH_MODEL]: model(PATCH_MODEL) },
      },
    },
    permission: { edit: "allow", bash: "allow", webfetch: "allow", external_directory: "allow", doom_loop: "allow" },
  };
  mkdirSync(opencodeConfigDir(world), { recursive: true });
  writeFileSync(join(opencodeConfigDir(world), "opencode.json"), `${JSON.stringify(config, null, 2)}\n`);
}

/**
 * Seeds a config folder that holds plugins with `@opencode-ai/plugin` at OpenCode's own version, so OpenCode finds
 * it up to date and installs nothing.
 */
export function seedPluginPackage(install: InstalledHarness, folder: string): void {
  const name = "@opencode-ai/plugin";
  const cached = ensurePackage({ package: name, version: install.version });
  mkdirSync(folder, { recursive: true });
  if (!existsSync(join(folder, "node_modules"))) symlinkSync(join(cached, "node_modules"), join(folder, "node_modules"), "dir");
  const dependencies = { [name]: install.version };
  writeFileSync(join(folder, "package.json"), `${JSON.stringify({ dependencies }, null, 2)}\n`);
  writeFileSync(join(folder, "package-lock.json"), `${JSON.stringify({ lockfileVersion: 3, packages: { "": { dependencies } } }, null, 2)}\n`);
}

export type OpencodeRun = {
  result: RunResult;
  /** The `--format json` events OpenCode printed. */
  events: Array<Record<string, unknown>>;
  sessionId: string;
  /** `--print-logs` (stderr). */
  logs: string;
};

export type OpencodeOptions = {
  /** The words of `opencode run` (it joins them, quoting each one that holds a space). */
  message: string[];
  model?: string;
  cwd?: string;
  env?: Record<string, string>;
  args?: string[];
  timeoutMs?: number;
};

export async function runOpencode(install: InstalledHarness, world: World, options: OpencodeOptions): Promise<OpencodeRun> {
  const args = ["run", "--format", "json", "--print-logs", "--model", `${PROVIDER}/${options.model ?? MODEL}`, ...(options.args ?? []), ...options.message];
  const result = await runTracked([...install.command, ...args], { cwd: options.cwd ?? world.project, env: opencodeEnv(world, options.env), timeoutMs: options.timeoutMs ?? 300_000 });
  const events = jsonLines(result.stdout);
  const sessionId = String(events.find((event) => typeof event.sessionID === "string")?.sessionID ?? "");
  return { result, events, sessionId, logs: result.stderr };
}

/** A run that must have finished by itself, and loaded every plugin (OpenCode logs only the failures). */
export function assertFinished(run: OpencodeRun): void {
  if (run.result.timedOut) throw new Error(`opencode timed out after ${run.result.ms} ms\nlogs: ${run.logs.slice(-3_000)}`);
  if (run.result.code !== 0) throw new Error(`opencode exited ${run.result.code} (${run.result.signal})\nlogs: ${run.logs.slice(-3_000)}\nstdout: ${run.result.stdout.slice(-2_000)}`);
  const failed = run.logs.split("\n").filter((line) => /failed to load plugin|plugin dispose hook failed|plugin config hook failed/.test(line));
  if (failed.length > 0) throw new Error(`opencode reported plugin failures:\n${failed.join("\n")}`);
}

/** `opencode serve` and its HTTP API, for what the TUI does (manual compaction). */
export class OpencodeServe {
  private constructor(
    readonly url: string,
    private readonly process: Tracked,
    private readonly directory: string,
  ) {}

  static async start(install: InstalledHarness, world: World, options: { env?: Record<string, string>; timeoutMs?: number } = {}): Promise<OpencodeServe> {
    const process = startTracked([...install.command, "serve", "--port", "0", "--print-logs"], { cwd: world.project, env: opencodeEnv(world, options.env), timeoutMs: options.timeoutMs ?? 600_000 });
    const deadline = Date.now() + 120_000;
    for (;;) {
      const url = /opencode server listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(process.stdout())?.[1];
      if (url) return new OpencodeServe(url, process, world.project);
      const ended = await Promise.race([process.done, Bun.sleep(100).then(() => null)]);
      if (ended) throw new Error(`opencode serve exited ${ended.code} before listening\n${ended.stderr.slice(-3_000)}`);
      if (Date.now() > deadline) throw new Error(`opencode serve did not listen within 120 s\n${process.stderr().slice(-3_000)}`);
    }
  }

  async request<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const url = new URL(path, this.url);
    url.searchParams.set("directory", this.directory);
    const response = await fetch(url, { method, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} → ${response.status}: ${text.slice(0, 2_000)}`);
    return (text ? JSON.parse(text) : null) as T;
  }

  async createSession(): Promise<string> {
    return (await this.request<{ id: string }>("POST", "/session", {})).id;
  }

  /** One user message, answered synchronously (the whole turn). */
  prompt(sessionId: string, text: string, model = MODEL): Promise<unknown> {
    return this.request("POST", `/session/${sessionId}/message`, { parts: [{ type: "text", text }], model: { providerID: PROVIDER, modelID: model } });
  }

  /** What the TUI's `/compact` calls. */
  summarize(sessionId: string, model = MODEL): Promise<unknown> {
    return this.request("POST", `/session/${sessionId}/summarize`, { providerID: PROVIDER, modelID: model });
  }

  /**
   * Stops the server the way that runs the plugins' dispose(): `POST /global/dispose` waits for them (a signal
   * alone ends the process without it), then SIGINT.
   */
  async stop(): Promise<RunResult> {
    await this.request("POST", "/global/dispose").catch(() => null);
    this.process.signal("SIGINT");
    return this.process.done;
  }

  get logs(): string {
    return this.process.stderr();
  }
}
