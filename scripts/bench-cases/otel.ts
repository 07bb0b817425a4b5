/**
 * The OpenTelemetry export's cost on the hook path (issue 18): a Claude Code Stop line (`--then=agent:done`), the
 * hook that starts the detached exporter, with nothing configured (an environment lookup and a read of the absent
 * user config file), with an endpoint in the environment and with one in the user config file. The endpoint is a
 * closed local port, so the exporters the runs leave behind fail fast and then wait out their backoff: what is
 * timed is the hook, which must not move beyond noise against the unconfigured case.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BenchCase } from "./types.ts";

const SESSION = "5f0c2d7e-1b8e-4f47-9a55-3b2a1d9c0e11";
const PROJECT = "{project}";
/** Nothing listens there (the discard port): a connection is refused at once. */
const DEAD_ENDPOINT = "http://127.0.0.1:9";

function stopPayload(project: string): string {
  return JSON.stringify({
    session_id: SESSION,
    transcript_path: `/home/dev/.claude/projects/-home-dev-acme/${SESSION}.jsonl`,
    cwd: project,
    permission_mode: "acceptEdits",
    hook_event_name: "Stop",
    stop_hook_active: false,
    last_assistant_message: "Fixed the rounding in src/cart/total.ts and added a regression test; all 42 tests pass.",
  });
}

/** A project with an open hooks session (and, for the config-file case, a user config naming the endpoint). */
function setup(withConfig: boolean) {
  return (project: string, binary: string): void => {
    mkdirSync(join(project, ".aioson"), { recursive: true });
    writeFileSync(join(project, ".aioson", "config.md"), "# bench project\n", { flag: "a" });
    if (withConfig) {
      mkdirSync(join(project, ".xdg", "aioson"), { recursive: true });
      writeFileSync(join(project, ".xdg", "aioson", "config.json"), JSON.stringify({ otel: { endpoint: DEAD_ENDPOINT } }));
    }
    const result = Bun.spawnSync([binary, "hooks:emit", project, "--agent=dev", "--source=claude"], {
      stdin: new TextEncoder().encode(stopPayload(project)),
      env: { ...process.env, OTEL_SDK_DISABLED: "true" },
    });
    if (result.exitCode !== 0) throw new Error(`hooks:emit setup exited ${result.exitCode}`);
  };
}

const ARGS = ["hooks:emit", "{project}", "--agent=dev", "--source=claude", "--then=agent:done"];
const BASE = "hooks:emit claude Stop --then=agent:done, no OTLP endpoint";
/** "Beyond noise": the ratios of one case move by about ±0.1 between runs of the same build (docs/benchmarks.md). */
const NOISE = 1.1;

const cases: BenchCase[] = [
  {
    name: BASE,
    args: ARGS,
    stdin: stopPayload(PROJECT),
    setup: setup(false),
    // Empty is unset: a developer's own OTEL_* settings do not leak into the baseline.
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: "", OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "", OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: "" },
    maxRatio: 2.1,
    maxRssMiB: 45,
  },
  {
    name: "hooks:emit claude Stop --then=agent:done, OTLP endpoint in the environment",
    args: ARGS,
    stdin: stopPayload(PROJECT),
    setup: setup(false),
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: DEAD_ENDPOINT },
    ratioTo: { name: BASE, max: NOISE },
    maxRssMiB: 45,
  },
  {
    name: "hooks:emit claude Stop --then=agent:done, OTLP endpoint in the user config file",
    args: ARGS,
    stdin: stopPayload(PROJECT),
    setup: setup(true),
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: "", XDG_CONFIG_HOME: `${PROJECT}/.xdg` },
    ratioTo: { name: BASE, max: NOISE },
    maxRssMiB: 45,
  },
];

export default cases;
