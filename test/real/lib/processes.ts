/**
 * Every process the bench starts, and its cleanup. A harness is spawned in its own process group and carries a
 * token in its environment (`AIOSON_REAL_TOKEN`) that every descendant inherits — hooks, shell tools, sub-agents,
 * also the ones that start their own process group. `sweep()` kills the groups it started and then every process
 * whose environment holds this run's token (read from /proc): nothing the bench started survives a finished run,
 * a timeout, a failed test, Ctrl-C or the bench's own exit.
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

export const TOKEN_VARIABLE = "AIOSON_REAL_TOKEN";
/**
 * Set by test/real/run.ts for the `bun test` it starts, so that it can sweep (and remove the worlds of) a test
 * process that died without cleaning up; a scenario file run on its own makes its own.
 */
export const RUN_TOKEN = process.env.AIOSON_REAL_RUN_TOKEN?.match(/^aioson-real-[a-z0-9-]+$/)?.[0] ?? newRunToken();

export function newRunToken(): string {
  return `aioson-real-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
}

const groups = new Set<number>();

function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, "SIGKILL");
  } catch {
    // already gone
  }
}

/** Pids of live processes whose environment carries this run's token (Linux /proc; elsewhere none). */
export function tokenProcesses(token = RUN_TOKEN): number[] {
  const needle = `${TOKEN_VARIABLE}=${token}`;
  const found: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, "latin1").split("\0").includes(needle)) found.push(pid);
    } catch {
      // exited meanwhile, or not ours to read
    }
  }
  return found;
}

/** Kills everything this run started (see the module comment). Safe to call any time, any number of times. */
export function sweep(token = RUN_TOKEN): void {
  for (const pgid of groups) killGroup(pgid);
  groups.clear();
  for (let round = 0; round < 3; round++) {
    const left = tokenProcesses(token);
    if (left.length === 0) return;
    for (const pid of left) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // gone
      }
    }
  }
}

let handlersInstalled = false;

function installHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on("exit", sweep);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => {
      sweep();
      process.exit(signal === "SIGINT" ? 130 : 143);
    });
  }
}

export type RunResult = { code: number | null; signal: string | null; stdout: string; stderr: string; timedOut: boolean; ms: number };

export type RunOptions = {
  cwd: string;
  env: Record<string, string>;
  /** Generous by default: the bench must not flake on a loaded 2-core machine. */
  timeoutMs?: number;
  stdin?: string;
};

/** A tracked process still running: its output so far, a way to signal it, and its end. */
export type Tracked = {
  pid: number | undefined;
  /** What it printed so far. */
  stdout(): string;
  stderr(): string;
  /** Sends a signal to the process itself (not its group). */
  signal(name: NodeJS.Signals): void;
  done: Promise<RunResult>;
};

/** Starts `command` in its own process group with the run token; its group is killed once it has ended. */
export function startTracked(command: readonly string[], options: RunOptions): Tracked {
  installHandlers();
  const [file, ...args] = command as [string, ...string[]];
  const started = Date.now();
  const child = spawn(file, args, {
    cwd: options.cwd,
    env: { ...options.env, [TOKEN_VARIABLE]: RUN_TOKEN },
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
  });
  if (child.pid !== undefined) groups.add(child.pid);
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
  child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
  child.stdin.on("error", () => {});
  child.stdin.end(options.stdin ?? "");
  const done = new Promise<RunResult>((resolve, reject) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) killGroup(child.pid);
    }, options.timeoutMs ?? 240_000);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (child.pid !== undefined) {
        // Whatever the harness left running in its group (a detached hook, a background shell) goes with it.
        killGroup(child.pid);
        groups.delete(child.pid);
      }
      resolve({ code, signal, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8"), timedOut, ms: Date.now() - started });
    });
  });
  return {
    pid: child.pid,
    stdout: () => Buffer.concat(out).toString("utf8"),
    stderr: () => Buffer.concat(err).toString("utf8"),
    signal: (name) => {
      try {
        child.kill(name);
      } catch {
        // gone already
      }
    },
    done,
  };
}

/** Starts `command` in its own process group with the run token, waits for it, kills its group afterwards. */
export function runTracked(command: readonly string[], options: RunOptions): Promise<RunResult> {
  return startTracked(command, options).done;
}

/** The JSON objects a harness printed one per line (`stream-json`, `--format json`); a line cut by a kill is skipped. */
export function jsonLines(stdout: string): Array<Record<string, unknown>> {
  const lines: Array<Record<string, unknown>> = [];
  for (const line of stdout.split("\n")) {
    if (!line.trim().startsWith("{")) continue;
    try {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // a partial line at a kill
    }
  }
  return lines;
}
