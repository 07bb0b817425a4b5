/**
 * Drives Codex CLI offline (real-harnesses.md §0): an isolated `CODEX_HOME` whose `config.toml` points the `fake`
 * provider (`wire_api = "responses"`) at the scripted server, model `gpt-5.5` (the family that gets the freeform
 * `apply_patch` tool and `exec_command`), `update_plan` switched on and automatic compaction at 100,000 tokens.
 * `codex exec --json` runs non-interactively; the TUI (hook trust review) runs in a tmux session of its own socket.
 *
 * Codex keeps no log of which hook command ran with which exit status, so the world's `aioson` is a shim: it
 * appends `<hook_event_name>\t<exit status>\t<argv>` to `aioson-runs.log` for every call and hands stdin, argv and
 * the exit status through to the real binary.
 */
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY } from "../../../helpers.ts";
import type { InstalledHarness } from "../install.ts";
import { jsonLines, RUN_TOKEN, runTracked, TOKEN_VARIABLE, type RunResult } from "../processes.ts";
import { baseEnv, type World } from "../project.ts";
import type { ModelServer } from "../server.ts";

export const CODEX_MODEL = "gpt-5.5";
/** Reported usage above this makes Codex compact before its next request. */
export const AUTO_COMPACT_LIMIT = 100_000;

export function codexHome(world: World): string {
  return join(world.home, ".codex");
}

export function codexEnv(world: World, extra: Record<string, string> = {}): Record<string, string> {
  return { ...baseEnv(world), CODEX_HOME: codexHome(world), FAKE_API_KEY: "fake", SHELL: "/bin/bash", TERM: "xterm-256color", ...extra };
}

/**
 * config.toml as a user of this world would have it: the fake provider, the project trusted, the TUI's one-time
 * notices answered (a model-migration prompt would stand between the TUI and its hooks review).
 */
export function writeCodexConfig(world: World, server: ModelServer): void {
  writeFileSync(
    join(codexHome(world), "config.toml"),
    [
      `model = "${CODEX_MODEL}"`,
      'model_provider = "fake"',
      `model_auto_compact_token_limit = ${AUTO_COMPACT_LIMIT}`,
      "check_for_update_on_startup = false",
      "",
      "[model_providers.fake]",
      'name = "fake"',
      `base_url = "${server.url}/v1"`,
      'wire_api = "responses"',
      'env_key = "FAKE_API_KEY"',
      "",
      "[tools.update_plan]",
      "enabled = true",
      "",
      `[projects.${JSON.stringify(world.project)}]`,
      'trust_level = "trusted"',
      "",
      "[notice.model_migrations]",
      `"${CODEX_MODEL}" = "gpt-6-sol"`,
      "",
      "[tui]",
      "screen_reader_detection_done = true",
      "",
      "[tui.model_availability_nux]",
      '"gpt-6.1-sol" = 1',
      "",
    ].join("\n"),
  );
}

export function runsLog(world: World): string {
  return join(world.root, "aioson-runs.log");
}

/** Replaces the world's `aioson` link with the logging shim (see the module comment). */
export function installAiosonShim(world: World): void {
  const shim = join(world.bin, "aioson");
  rmSync(shim, { force: true });
  writeFileSync(
    shim,
    `#!/bin/sh
# aioson as the harness ran it: one log line per call, then the real binary with the same stdin and argv.
payload=$(cat)
event=$(printf '%s' "$payload" | sed -n 's/.*"hook_event_name":"\\([A-Za-z]*\\)".*/\\1/p' | head -n 1)
printf '%s' "$payload" | ${JSON.stringify(BINARY)} "$@"
status=$?
printf '%s\\t%s\\t%s\\n' "\${event:--}" "$status" "$*" >> ${JSON.stringify(runsLog(world))}
exit $status
`,
  );
  chmodSync(shim, 0o755);
}

export type HookRun = { event: string; status: number; args: string };

export function hookRuns(world: World): HookRun[] {
  const path = runsLog(world);
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [event = "", status = "", args = ""] = line.split("\t");
      return { event, status: Number(status), args };
    });
}

export type CodexRun = {
  result: RunResult;
  /** The `--json` lines Codex printed. */
  lines: Array<Record<string, unknown>>;
  threadId: string;
  /** The hook runs of this exec (the shim's lines written while it ran). */
  hooks: HookRun[];
};

export type CodexOptions = {
  prompt: string;
  /** `--dangerously-bypass-hook-trust` (default true): automation's way past the trust review. */
  bypassTrust?: boolean;
  env?: Record<string, string>;
  timeoutMs?: number;
};

export async function runCodexExec(install: InstalledHarness, world: World, options: CodexOptions): Promise<CodexRun> {
  const before = hookRuns(world).length;
  const args = [
    "exec",
    "--json",
    "--skip-git-repo-check",
    ...(options.bypassTrust === false ? [] : ["--dangerously-bypass-hook-trust"]),
    "--dangerously-bypass-approvals-and-sandbox",
    options.prompt,
  ];
  const result = await runTracked([...install.command, ...args], { cwd: world.project, env: codexEnv(world, options.env), timeoutMs: options.timeoutMs ?? 300_000 });
  const lines = jsonLines(result.stdout);
  const started = lines.find((line) => line.type === "thread.started");
  return { result, lines, threadId: typeof started?.thread_id === "string" ? started.thread_id : "", hooks: hookRuns(world).slice(before) };
}

export function assertFinished(run: CodexRun): void {
  if (run.result.timedOut) throw new Error(`codex timed out after ${run.result.ms} ms\nstderr: ${run.result.stderr.slice(-2_000)}`);
  if (run.result.code !== 0) throw new Error(`codex exited ${run.result.code} (${run.result.signal})\nstderr: ${run.result.stderr.slice(-2_000)}\nstdout: ${run.result.stdout.slice(-2_000)}`);
}

/**
 * The Codex TUI in a detached tmux session on a server of its own (its socket in the world's folder, removed with
 * it), started with `--no-daemon`; the run token is in its environment, so the bench's sweep finds it like any other
 * process it started.
 */
export class CodexTui {
  readonly session = "codex";

  constructor(
    readonly install: InstalledHarness,
    readonly world: World,
  ) {}

  #tmux(...args: string[]): { code: number; out: string } {
    const run = Bun.spawnSync(["tmux", "-S", join(this.world.root, "tmux.sock"), ...args], { stdout: "pipe", stderr: "pipe", env: { PATH: process.env.PATH ?? "/usr/bin:/bin", TMPDIR: process.env.TMPDIR ?? "/tmp" } });
    return { code: run.exitCode ?? -1, out: run.stdout.toString() };
  }

  start(): void {
    const env = Object.entries({ ...codexEnv(this.world), [TOKEN_VARIABLE]: RUN_TOKEN }).map(([key, value]) => `${key}=${shellQuote(value)}`);
    const line = `cd ${shellQuote(this.world.project)} && exec env -i ${env.join(" ")} ${this.install.command.map(shellQuote).join(" ")} --no-daemon`;
    const started = this.#tmux("new-session", "-d", "-s", this.session, "-x", "200", "-y", "50", line);
    if (started.code !== 0) throw new Error("tmux new-session failed (is tmux installed?)");
  }

  screen(): string {
    return this.#tmux("capture-pane", "-p", "-t", this.session).out;
  }

  keys(...keys: string[]): void {
    this.#tmux("send-keys", "-t", this.session, ...keys);
  }

  /** Waits until the screen shows `text` (a loaded machine can take seconds), else fails with the screen. */
  async waitFor(text: string, timeoutMs = 60_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = this.screen();
      if (screen.includes(text)) return screen;
      if (Date.now() > deadline) throw new Error(`the Codex TUI never showed ${JSON.stringify(text)}; screen:\n${screen}`);
      await Bun.sleep(200);
    }
  }

  stop(): void {
    this.#tmux("kill-server");
  }
}

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}
