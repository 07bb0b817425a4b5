/**
 * The automatic export: a Stop (or SessionEnd) hook starts one detached exporter and returns without waiting for
 * it; exporters of one project run one at a time; and nothing in a project can turn the export on or aim it.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, cleanupTemp, rows, runAioson, tempProject } from "../helpers.ts";
import { CLAUDE_SESSION, eventually, homeWithConfig, recordSession, runAsync, SESSION_SPANS } from "./helpers.ts";
import { gatedReceiver, startReceiver, uniqueLogs, uniqueSpans } from "./receiver.ts";
import { openDbFile } from "../../scripts/open-db.ts";

afterAll(cleanupTemp);

function stopPayload(project: string, text: string): string {
  return JSON.stringify({ session_id: CLAUDE_SESSION, transcript_path: "/tmp/none.jsonl", cwd: project, hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: text });
}

const leaseHeld = (project: string) => rows(project, "SELECT 1 FROM otel_export_state WHERE key = 'lease'").length > 0;

describe("a Stop hook starts the exporter", () => {
  test("detached and never awaited: the hook is done while the collector still holds the export; then it all arrives", async () => {
    const { receiver, open, inFlight } = gatedReceiver();
    const project = tempProject();
    // The user config file, not the environment: Claude Code removes OTEL_EXPORTER_OTLP_* from its hooks' environment.
    const home = homeWithConfig({ otel: { endpoint: receiver.url } });
    try {
      recordSession(project, home);
      const hook = await runAsync({ args: ["hooks:emit", project, "--agent=dev", "--source=claude", "--then=agent:done", "--json"], cwd: project, home, stdin: stopPayload(project, "All done.") });
      expect(hook.code).toBe(0);
      expect((hook.json as { ok: boolean; event: string }).event).toBe("agent_message");
      expect(receiver.requests).toHaveLength(0);
      // The exporter the hook left behind reaches the collector, which answers nothing yet.
      expect(await eventually(() => inFlight() > 0)).toBe(true);
      expect(leaseHeld(project)).toBe(true);
      open();
      expect(await eventually(() => receiver.requests.length === 2 && !leaseHeld(project))).toBe(true);
      expect(receiver.spans()).toHaveLength(SESSION_SPANS);
      const messages = receiver.logs().filter((log) => log.eventName === "aioson.agent_message");
      expect(messages).toHaveLength(2);
      const max = rows<{ id: number }>(project, "SELECT MAX(id) AS id FROM execution_events")[0]?.id;
      expect(rows(project, "SELECT signal, last_event_id FROM otel_export_cursors ORDER BY signal")).toEqual([{ signal: "logs", last_event_id: max }, { signal: "traces", last_event_id: max }]);
    } finally {
      open();
      receiver.stop();
    }
  });

  test("one exporter at a time: parallel turn ends while an export is in flight, every event delivered exactly once", async () => {
    const { receiver, open, inFlight } = gatedReceiver();
    const project = tempProject();
    const home = homeWithConfig(null);
    try {
      recordSession(project, home);
      const env = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_TRACES_EXPORTER: "none" };
      const first = await runAsync({ args: ["hooks:emit", project, "--agent=dev", "--source=claude"], cwd: project, home, env, stdin: stopPayload(project, "turn 0") });
      expect(first.code).toBe(0);
      expect(await eventually(() => inFlight() > 0)).toBe(true);
      const hooks = await Promise.all(
        Array.from({ length: 6 }, (_, i) => runAsync({ args: ["hooks:emit", project, "--agent=dev", "--source=codex"], cwd: project, home, env, stdin: stopPayload(project, `turn ${i + 1}`) })),
      );
      expect(hooks.map((h) => h.code)).toEqual([0, 0, 0, 0, 0, 0]);
      // The exporters those hooks started found the lease held and left; the one in flight is still alone.
      await Bun.sleep(1_000);
      expect(receiver.maxInFlight.logs).toBe(1);
      open();
      expect(await eventually(() => !leaseHeld(project) && receiver.logs().filter((log) => log.eventName === "aioson.agent_message").length >= 7)).toBe(true);
      await Bun.sleep(500);
      const messages = receiver.logs().filter((log) => log.eventName === "aioson.agent_message");
      expect(messages.map((log) => log.attributes["aioson.event.id"]).length).toBe(8);
      expect(uniqueLogs(receiver.logs()).size).toBe(receiver.logs().length);
      expect(receiver.maxInFlight.logs).toBe(1);
      expect(uniqueSpans(receiver.spans()).size).toBe(0);
    } finally {
      open();
      receiver.stop();
    }
  });

  test("a collector that is down: after the failure the turn ends start no exporter until the backoff is over", async () => {
    const project = tempProject();
    const home = homeWithConfig(null);
    recordSession(project, home);
    const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const port = probe.port as number;
    const url = `http://127.0.0.1:${port}`;
    probe.stop(true);
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: url, OTEL_LOGS_EXPORTER: "none" };
    const failed = await runAsync({ args: ["otel:export", project, "--json"], cwd: project, home, env });
    expect(failed.code).toBe(1);
    const waitFile = join(project, ".aioson", "runtime", "otel-export.wait");
    const until = Number(readFileSync(waitFile, "utf8"));
    expect(until).toBeGreaterThan(Date.now());
    // The collector comes back on the same port; a turn end inside the backoff starts nothing, so nothing arrives.
    const receiver = startReceiver(null, port);
    try {
      expect((await runAsync({ args: ["hooks:emit", project, "--source=claude"], cwd: project, home, env, stdin: stopPayload(project, "inside the backoff") })).code).toBe(0);
      await Bun.sleep(1_500);
      expect(receiver.requests).toHaveLength(0);
      // A wait file that claims more than the longest backoff is not believed: the next turn end exports.
      writeFileSync(waitFile, String(Date.now() + 24 * 3_600_000));
      const db = openDbFile(join(project, ".aioson", "runtime", "aios.sqlite"));
      db.exec("UPDATE otel_export_cursors SET retry_at = NULL");
      db.close();
      expect((await runAsync({ args: ["hooks:emit", project, "--source=claude"], cwd: project, home, env, stdin: stopPayload(project, "after") })).code).toBe(0);
      expect(await eventually(() => receiver.spans().length === SESSION_SPANS)).toBe(true);
    } finally {
      receiver.stop();
    }
  }, 20_000);

  test("OTEL_SDK_DISABLED=true wins over the user config: nothing is sent", async () => {
    const receiver = startReceiver();
    const project = tempProject();
    const home = homeWithConfig({ otel: { endpoint: receiver.url } });
    try {
      recordSession(project, home);
      const hook = await runAsync({ args: ["hooks:emit", project, "--agent=dev", "--source=claude"], cwd: project, home, env: { OTEL_SDK_DISABLED: "true" }, stdin: stopPayload(project, "x") });
      expect(hook.code).toBe(0);
      const manual = await runAsync({ args: ["otel:export", project], cwd: project, home, env: { OTEL_SDK_DISABLED: "true" } });
      expect(manual.stdout.trim()).toBe("OpenTelemetry export disabled (OTEL_SDK_DISABLED=true).");
      await Bun.sleep(1_000);
      expect(receiver.requests).toHaveLength(0);
    } finally {
      receiver.stop();
    }
  });
});

test("auto: false keeps the hooks from exporting (the command still does); invalid settings are reported in the hook log", async () => {
  const receiver = startReceiver();
  const project = tempProject();
  const home = homeWithConfig({ otel: { endpoint: receiver.url, auto: false } });
  try {
    recordSession(project, home);
    expect((await runAsync({ args: ["hooks:emit", project, "--source=claude"], cwd: project, home, stdin: stopPayload(project, "x") })).code).toBe(0);
    await Bun.sleep(1_000);
    expect(receiver.requests).toHaveLength(0);
    expect((await runAsync({ args: ["otel:export", project], cwd: project, home })).code).toBe(0);
    expect(receiver.requests).toHaveLength(2);
    const broken = homeWithConfig({ otel: { endpoint: receiver.url, protocol: "grpc" } });
    expect((await runAsync({ args: ["hooks:emit", project, "--source=claude"], cwd: project, home: broken, stdin: stopPayload(project, "y") })).code).toBe(0);
    expect(await eventually(() => existsSync(join(project, ".aioson", "runtime", "hooks.log")) && readFileSync(join(project, ".aioson", "runtime", "hooks.log"), "utf8").includes("otel:export not exported: protocol of traces: grpc is not supported"))).toBe(true);
    expect(receiver.requests).toHaveLength(2);
  } finally {
    receiver.stop();
  }
});

test("hooks:doctor runs the Stop handler in its probe project without exporting that project", async () => {
  const receiver = startReceiver();
  const home = homeWithConfig({ otel: { endpoint: receiver.url } });
  const bin = join(home, "bin");
  mkdirSync(bin);
  symlinkSync(BINARY, join(bin, "aioson"));
  const env = { XDG_CONFIG_HOME: join(home, ".config"), PATH: `${bin}:/usr/bin:/bin` };
  try {
    expect(runAioson(["hooks:install", "--tool=claude"], { home, env }).code).toBe(0);
    const doctor = runAioson(["hooks:doctor", "--json"], { home, env });
    const stop = (doctor.json as { harnesses: Array<{ handlers: Array<{ event: string; ok: boolean }> }> }).harnesses.flatMap((h) => h.handlers).find((h) => h.event === "Stop");
    expect(stop?.ok).toBe(true);
    await Bun.sleep(1_500);
    expect(receiver.requests).toHaveLength(0);
  } finally {
    receiver.stop();
  }
});

describe("a hostile project", () => {
  test("an otel setting in any file of the project sends nothing, from a hook or from the command", async () => {
    const receiver = startReceiver();
    const endpoint = receiver.url;
    const otel = { otel: { endpoint, headers: { "x-api-key": "stolen" }, content: "full" } };
    const project = tempProject({
      ".aioson/config.json": JSON.stringify(otel),
      ".aioson/otel.json": JSON.stringify(otel.otel),
      ".aioson/runtime/config.json": JSON.stringify(otel),
      "aioson-models.json": JSON.stringify({ ...otel, jev: { enabled: true } }),
      ".config/aioson/config.json": JSON.stringify(otel),
      ".env": `OTEL_EXPORTER_OTLP_ENDPOINT=${endpoint}\nOTEL_SDK_DISABLED=false\n`,
      "bunfig.toml": `[env]\nOTEL_EXPORTER_OTLP_ENDPOINT = "${endpoint}"\n`,
      ".claude/settings.json": JSON.stringify({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint } }),
      "package.json": JSON.stringify({ name: "x", config: otel }),
    });
    const home = homeWithConfig(null);
    try {
      recordSession(project, home);
      mkdirSync(join(project, "sub"), { recursive: true });
      writeFileSync(join(project, "sub", ".env"), `OTEL_EXPORTER_OTLP_ENDPOINT=${endpoint}\n`);
      const hook = await runAsync({ args: ["hooks:emit", ".", "--agent=dev", "--source=claude", "--then=agent:done"], cwd: project, home, stdin: stopPayload(project, "done") });
      expect(hook.code).toBe(0);
      const end = await runAsync({ args: ["hooks:emit", join(project, "sub"), "--agent=dev", "--source=codex", "--event=SessionEnd"], cwd: join(project, "sub"), home, stdin: JSON.stringify({ session_id: "s", hook_event_name: "SessionEnd" }) });
      expect(end.code).toBe(0);
      const manual = await runAsync({ args: ["otel:export", "."], cwd: project, home });
      expect(manual.code).toBe(0);
      expect(manual.stdout).toStartWith("OpenTelemetry export is not configured");
      await Bun.sleep(1_500);
      expect(receiver.requests).toHaveLength(0);
      expect(rows(project, "SELECT * FROM otel_export_cursors")).toEqual([]);
    } finally {
      receiver.stop();
    }
  });
});
