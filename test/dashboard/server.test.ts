/**
 * `aioson dashboard` over HTTP, through the real binary: what it prints, who may talk to it (token, Host, Origin),
 * that it only reads, that a hostile project cannot hang or fool it, the JSON API and the push of new events.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { HealthResponse, ProjectsResponse, PushMessage, SessionDetail, SessionsResponse, TimelineResponse } from "../../src/dashboard/api.ts";
import { cleanupTemp, runAioson, tempDir, tempProject } from "../helpers.ts";
import { get, getJson, rawRequest, startDashboard, writePayload, type RunningDashboard } from "./helpers.ts";
import { openDbFile } from "../../scripts/open-db.ts";

const running: RunningDashboard[] = [];
afterAll(async () => {
  for (const dashboard of running) await dashboard.stop();
  cleanupTemp();
});

async function start(args: readonly string[], home: string, env: Record<string, string | undefined> = {}): Promise<RunningDashboard> {
  const dashboard = await startDashboard(args, { home, env });
  running.push(dashboard);
  return dashboard;
}

function emit(project: string, home: string, payload: string, args: readonly string[] = []): void {
  expect(runAioson(["hooks:emit", project, ...args], { home, stdin: payload }).code).toBe(0);
}

describe("aioson dashboard: what it prints", () => {
  test("one line: Dashboard: http://127.0.0.1:<port>/?token=<token>; --json prints {url}", async () => {
    const home = tempDir("aioson-home-");
    const project = tempProject();
    const plain = await start([project, "--no-open", "--port=0"], home);
    expect(plain.stdout()).toMatch(/^Dashboard: http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}\n$/);
    const json = await start([project, "--no-open", "--port=0", "--json"], home);
    expect(JSON.parse(json.stdout())).toEqual({ url: json.url });
    expect(json.token).not.toBe(plain.token);
  });

  test("a second start on a busy port picks a free one; Ctrl-C stops it with status 0", async () => {
    const home = tempDir("aioson-home-");
    const project = tempProject();
    const first = await start([project, "--no-open", "--port=0"], home);
    const second = await startDashboard([project, "--no-open", `--port=${first.port}`], { home });
    expect(second.port).not.toBe(first.port);
    expect((await get(second, "/api/projects")).status).toBe(200);
    expect(await second.stop()).toBe(0);
  });

  test("a directory that is not a project is refused", () => {
    const home = tempDir("aioson-home-");
    const result = runAioson(["dashboard", tempDir("aioson-plain-"), "--no-open"], { home });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Error: Not an AIOSON project: /);
    expect(runAioson(["dashboard", "--port=99999", "--no-open"], { home }).stderr).toContain("--port must be a number");
  });

  test("opens the browser through the desktop's opener, never with --no-open or without a desktop", async () => {
    const home = tempDir("aioson-home-");
    const project = tempProject();
    const bin = tempDir("aioson-bin-");
    const marker = join(bin, "opened.txt");
    writeFileSync(join(bin, "xdg-open"), `#!/bin/sh\nprintf '%s\\n%s' "$1" "$(pwd)" > '${marker}'\n`);
    chmodSync(join(bin, "xdg-open"), 0o755);
    const path = `${bin}:${process.env.PATH}`;
    await (await start([project, "--port=0", "--no-open"], home, { PATH: path, DISPLAY: ":0" })).stop();
    await (await start([project, "--port=0"], home, { PATH: path, DISPLAY: undefined, WAYLAND_DISPLAY: undefined })).stop();
    expect(existsSync(marker)).toBe(false);
    const opened = await start([project, "--port=0"], home, { PATH: path, DISPLAY: ":0" });
    for (let i = 0; i < 100 && !existsSync(marker); i++) await Bun.sleep(20);
    const [url, cwd] = readFileSync(marker, "utf8").split("\n");
    expect(url).toBe(opened.url);
    // The opener runs in the user's home, never in the project.
    expect(cwd).toBe(home);
  });
});

describe("aioson dashboard: who may talk to it", () => {
  test("the token: required on every request, taken from the URL once into an HttpOnly SameSite=Strict cookie", async () => {
    const home = tempDir("aioson-home-");
    const dashboard = await start([tempProject(), "--no-open", "--port=0"], home);
    for (const path of ["/", "/api/projects", "/api/stream", "/favicon.svg", "/nothing"]) {
      const response = await fetch(`${dashboard.origin}${path}`, { redirect: "manual" });
      expect({ path, status: response.status }).toEqual({ path, status: 401 });
      expect(await response.text()).toContain("token");
    }
    expect((await fetch(`${dashboard.origin}/?token=wrong`, { redirect: "manual" })).status).toBe(401);
    expect((await get({ ...dashboard, cookie: `aioson_dashboard_${dashboard.port}=${dashboard.token.slice(1)}x` }, "/api/projects")).status).toBe(401);
    // Another port's cookie is not this one's.
    expect((await get({ ...dashboard, cookie: `aioson_dashboard_1=${dashboard.token}` }, "/api/projects")).status).toBe(401);
    const entry = await fetch(dashboard.url, { redirect: "manual" });
    expect(entry.status).toBe(303);
    expect(entry.headers.get("location")).toBe("/");
    expect(entry.headers.get("set-cookie")).toBe(`aioson_dashboard_${dashboard.port}=${dashboard.token}; Path=/; HttpOnly; SameSite=Strict`);
    const page = await get(dashboard, "/");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
  });

  test("Host must be this server (DNS rebinding), Origin and Sec-Fetch-Site this origin; only GET and HEAD", async () => {
    const home = tempDir("aioson-home-");
    const dashboard = await start([tempProject(), "--no-open", "--port=0"], home);
    const request = (host: string, extra: string[] = [], method = "GET") =>
      rawRequest(dashboard.port, [`${method} /api/projects HTTP/1.1`, `Host: ${host}`, `Cookie: ${dashboard.cookie}`, ...extra]);
    for (const host of [`127.0.0.1:${dashboard.port}`, `localhost:${dashboard.port}`]) expect((await request(host)).status).toBe(200);
    for (const host of [`evil.example:${dashboard.port}`, `127.0.0.1.nip.io:${dashboard.port}`, "127.0.0.1:1", "127.0.0.1", `localhost.:${dashboard.port}`]) {
      expect({ host, status: (await request(host)).status }).toEqual({ host, status: 421 });
    }
    const ok = `127.0.0.1:${dashboard.port}`;
    expect((await request(ok, [`Origin: http://${ok}`])).status).toBe(200);
    expect((await request(ok, ["Origin: http://evil.example"])).status).toBe(403);
    expect((await request(ok, [`Origin: http://localhost:${dashboard.port}`])).status).toBe(403);
    expect((await request(ok, ["Origin: null"])).status).toBe(403);
    expect((await request(ok, ["Sec-Fetch-Site: cross-site"])).status).toBe(403);
    expect((await request(ok, ["Sec-Fetch-Site: same-site"])).status).toBe(403);
    expect((await request(ok, ["Sec-Fetch-Site: same-origin"])).status).toBe(200);
    for (const method of ["POST", "PUT", "DELETE", "OPTIONS"]) expect((await request(ok, ["Content-Length: 0"], method)).status).toBe(405);
    // The refusal of a rebinding page does not depend on the cookie either.
    expect((await rawRequest(dashboard.port, ["GET /api/projects HTTP/1.1", `Host: evil.example:${dashboard.port}`])).status).toBe(421);
  });

  test("every response carries a strict Content-Security-Policy; the page has no inline script or style", async () => {
    const home = tempDir("aioson-home-");
    const dashboard = await start([tempProject(), "--no-open", "--port=0"], home);
    const page = await get(dashboard, "/");
    const html = await page.text();
    for (const response of [page, await get(dashboard, "/api/projects"), await fetch(`${dashboard.origin}/`)]) {
      const csp = response.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("style-src 'self'");
      expect(csp).not.toContain("unsafe");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("x-frame-options")).toBe("DENY");
    }
    const scripts = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBe(1);
    for (const [tag, body] of scripts) {
      expect(tag).toMatch(/ src="\/[\w.-]+\.js"/);
      expect(body).toBe("");
    }
    expect(html).not.toMatch(/<style\b|\sstyle=|\son\w+=/i);
    // Every asset the page names is embedded in the binary and served by it.
    for (const [, path] of html.matchAll(/(?:src|href)="(\/[\w.-]+)"/g)) expect({ path, status: (await get(dashboard, path as string)).status }).toEqual({ path, status: 200 });
  });
});

describe("aioson dashboard: reads, never writes", () => {
  test("a project's store and runtime files are left byte for byte as they were", async () => {
    const home = tempDir("aioson-home-");
    const project = tempProject();
    emit(project, home, writePayload(project, "ro-1", "a.ts"));
    const runtime = join(project, ".aioson", "runtime");
    const snapshot = () => ["aios.sqlite", "aios.sqlite-wal"].map((name) => (existsSync(join(runtime, name)) ? readFileSync(join(runtime, name)).toString("base64") : null));
    const before = snapshot();
    const dashboard = await start([project, "--no-open", "--port=0"], home);
    const { projects } = await getJson<ProjectsResponse>(dashboard, "/api/projects");
    const id = projects[0]?.id as string;
    for (const path of [`/api/sessions?project=${id}`, `/api/session?project=${id}&session=ro-1`, `/api/timeline?project=${id}&session=ro-1`, `/api/charts?project=${id}`, `/api/health?project=${id}`]) {
      expect({ path, status: (await get(dashboard, path)).status }).toEqual({ path, status: 200 });
    }
    await dashboard.stop();
    expect(snapshot()).toEqual(before);
  });

  test("hook health reads the installed configs and runs none of their commands", async () => {
    const home = tempDir("aioson-home-");
    const project = tempProject();
    expect(runAioson(["hooks:install", project, "--tool=claude"], { home }).code).toBe(0);
    // An `aioson` first on PATH that leaves a trace if anything runs it.
    const bin = tempDir("aioson-bin-");
    const marker = join(bin, "ran.txt");
    writeFileSync(join(bin, "aioson"), `#!/bin/sh\necho "$@" >> '${marker}'\n`);
    chmodSync(join(bin, "aioson"), 0o755);
    emit(project, home, writePayload(project, "h-1", "a.ts"));
    const dashboard = await start([project, "--no-open", "--port=0"], home, { PATH: `${bin}:${process.env.PATH}` });
    const id = (await getJson<ProjectsResponse>(dashboard, "/api/projects")).projects[0]?.id as string;
    const health = await getJson<HealthResponse>(dashboard, `/api/health?project=${id}`);
    const claude = health.harnesses.find((h) => h.tool === "claude");
    expect(claude?.installed).toBe(true);
    expect(claude?.handlers.map((h) => h.event)).toContain("PostToolUse");
    expect(health.fired.find((f) => f.hook === "PostToolUse (file change)")?.harness).toBe("claude");
    // The other aioson first on PATH is named, not run.
    expect(health.issues.map((i) => i.message).join("\n")).toContain(`The hooks run ${join(bin, "aioson")}, not this binary`);
    expect(existsSync(marker)).toBe(false);
  });

  test("hooks.log problems are shown newest first, as text", async () => {
    const home = tempDir("aioson-home-");
    const project = tempProject();
    emit(project, home, writePayload(project, "l-1", "a.ts"));
    writeFileSync(join(project, ".aioson", "runtime", "hooks.log"), "2026-01-01T00:00:00.000Z hooks:emit Error: first\n2026-01-02T00:00:00.000Z context:guard Error: <b>second</b>\n");
    const dashboard = await start([project, "--no-open", "--port=0"], home);
    const id = (await getJson<ProjectsResponse>(dashboard, "/api/projects")).projects[0]?.id as string;
    const { log } = await getJson<HealthResponse>(dashboard, `/api/health?project=${id}`);
    expect(log).toEqual([
      { ts: "2026-01-02T00:00:00.000Z", command: "context:guard", text: "Error: <b>second</b>" },
      { ts: "2026-01-01T00:00:00.000Z", command: "hooks:emit", text: "Error: first" },
    ]);
  });
});

describe("aioson dashboard: a hostile project", () => {
  test("a FIFO, a symlink or a view where the store should be is reported, never opened, never hangs", async () => {
    const home = tempDir("aioson-home-");
    const fifo = tempProject();
    mkdirSync(join(fifo, ".aioson", "runtime"), { recursive: true });
    Bun.spawnSync(["mkfifo", join(fifo, ".aioson", "runtime", "aios.sqlite")]);
    const linked = tempProject();
    const other = tempProject();
    emit(other, home, writePayload(other, "x-1", "a.ts"));
    mkdirSync(join(linked, ".aioson", "runtime"), { recursive: true });
    symlinkSync(join(other, ".aioson", "runtime", "aios.sqlite"), join(linked, ".aioson", "runtime", "aios.sqlite"));
    const viewed = tempProject();
    emit(viewed, home, writePayload(viewed, "v-1", "a.ts"));
    const { Database } = await import("bun:sqlite");
    const db = openDbFile(join(viewed, ".aioson", "runtime", "aios.sqlite"));
    db.exec("ALTER TABLE execution_events RENAME TO real_events; CREATE VIEW execution_events AS SELECT * FROM real_events;");
    db.close();
    for (const [project, problem] of [[fifo, "not a regular file"], [linked, "symlink"], [viewed, "no execution_events table"]] as const) {
      const dashboard = await start([project, "--no-open", "--port=0"], home);
      const { projects } = await getJson<ProjectsResponse>(dashboard, "/api/projects");
      expect(projects[0]?.store).toBe(false);
      expect(projects[0]?.problem).toContain(problem);
      // The page is told why there is nothing, and reads nothing from it.
      const sessions = await getJson<SessionsResponse>(dashboard, `/api/sessions?project=${projects[0]?.id}`);
      expect(sessions.project.problem).toContain(problem);
      expect(sessions.harness).toEqual([]);
      expect((await get(dashboard, `/api/session?project=${projects[0]?.id}&session=x-1`)).status).toBe(409);
      expect((await get(dashboard, `/api/timeline?project=${projects[0]?.id}&session=x-1`)).status).toBe(409);
      await dashboard.stop();
    }
  });

  test("a store with more harness sessions than anyone makes is listed up to the cap, and says so", async () => {
    const home = tempDir("aioson-home-");
    const project = tempProject();
    emit(project, home, writePayload(project, "cap-0", "a.ts"));
    const { Database } = await import("bun:sqlite");
    const db = openDbFile(join(project, ".aioson", "runtime", "aios.sqlite"));
    db.exec("BEGIN");
    const insert = db.query("INSERT INTO execution_events (event_type, message, created_at, harness_session_id) VALUES ('note', 'x', '2026-01-01T00:00:00.000Z', ?)");
    for (let i = 0; i < 50_010; i++) insert.run(`s-${i}`);
    db.exec("COMMIT");
    db.close();
    const dashboard = await start([project, "--no-open", "--port=0"], home);
    const id = (await getJson<ProjectsResponse>(dashboard, "/api/projects")).projects[0]?.id as string;
    const sessions = await getJson<SessionsResponse>(dashboard, `/api/sessions?project=${id}&limit=5`);
    expect(sessions.harnessTotal).toBe(50_000);
    expect(sessions.harnessCapped).toBe(true);
    expect(sessions.harness.length).toBe(5);
  });

  test("ids and cursors from the page are validated; no path is ever taken from a request", async () => {
    const home = tempDir("aioson-home-");
    const project = tempProject();
    emit(project, home, writePayload(project, "q-1", "a.ts"));
    const dashboard = await start([project, "--no-open", "--port=0"], home);
    const id = (await getJson<ProjectsResponse>(dashboard, "/api/projects")).projects[0]?.id as string;
    for (const path of [
      "/api/sessions?project=../../etc",
      `/api/sessions?project=${"0".repeat(16)}`,
      `/api/timeline?project=${id}`,
      `/api/timeline?project=${id}&session=q-1&before=-1`,
      `/api/timeline?project=${id}&session=q-1&before=1e9`,
      `/api/session?project=${id}&session=${"x".repeat(1001)}`,
      `/api/session?project=${id}&session=nope`,
      `/api/sessions?project=${id}&status=everything`,
    ]) {
      const response = await get(dashboard, path);
      expect({ path, status: response.status }).toEqual({ path, status: response.status === 404 ? 404 : 400 });
      expect(((await response.json()) as { error: string }).error).toBeTruthy();
    }
  });
});

describe("aioson dashboard: the API", () => {
  test("every registered project is listed; sessions, filters, a harness session's panels and its keyset timeline", async () => {
    const home = tempDir("aioson-home-");
    const a = tempProject();
    const b = tempProject();
    for (let i = 0; i < 7; i++) emit(a, home, writePayload(a, "claude-1", `src/f${i}.ts`));
    emit(a, home, JSON.stringify({ hook_event_name: "PostToolUse", session_id: "codex-1", tool_name: "Bash", tool_input: { command: "npm test" }, tool_response: "Tests: 1 failed\nProcess exited with code 1" }), ["--source=codex", "--agent=qa"]);
    emit(a, home, JSON.stringify({ hook_event_name: "PreCompact", session_id: "claude-1", trigger: "auto" }));
    emit(b, home, writePayload(b, "b-1", "x.ts"));
    const dashboard = await start(["--no-open", "--port=0"], home);
    const { projects, single } = await getJson<ProjectsResponse>(dashboard, "/api/projects");
    expect(single).toBe(false);
    expect(projects.map((p) => p.root).sort()).toEqual([a, b].sort());
    const pa = projects.find((p) => p.root === a) as ProjectsResponse["projects"][number];
    expect(pa.events).toBeGreaterThan(9);
    expect(pa.openSessions).toBe(2);
    const sessions = await getJson<SessionsResponse>(dashboard, `/api/sessions?project=${pa.id}`);
    expect(sessions.hooks.map((s) => `${s.agent} ${s.harness} ${s.owner} ${s.open}`).sort()).toEqual(["@dev claude hooks true", "@qa codex hooks true"]);
    expect(sessions.harness.map((s) => `${s.id} ${s.agent} ${s.harness} ${s.state}`).sort()).toEqual(["claude-1 @dev claude open", "codex-1 @qa codex open"]);
    expect(sessions.harnesses).toEqual(["claude", "codex"]);
    const qa = await getJson<SessionsResponse>(dashboard, `/api/sessions?project=${pa.id}&agent=@qa`);
    expect(qa.harness.map((s) => s.id)).toEqual(["codex-1"]);
    expect(qa.harnessMatching).toBe(1);
    expect(qa.harnessTotal).toBe(2);
    const closed = await getJson<SessionsResponse>(dashboard, `/api/sessions?project=${pa.id}&status=closed`);
    expect(closed.harness).toEqual([]);

    const detail = await getJson<SessionDetail>(dashboard, `/api/session?project=${pa.id}&session=claude-1`);
    expect(detail.files.map((f) => f.path)).toEqual([6, 5, 4, 3, 2, 1, 0].map((i) => `src/f${i}.ts`));
    expect(detail.compactions.length).toBe(1);
    // The checkpoint is the one hooks:recap injects for this session, character for character.
    const recap = runAioson(["hooks:recap", a, "--when=always", "--session=claude-1"], { home });
    expect(detail.checkpoint).toBe(recap.stdout.trimEnd());
    const codex = await getJson<SessionDetail>(dashboard, `/api/session?project=${pa.id}&session=codex-1`);
    expect(codex.failing).toEqual([{ command: "npm test", exitCode: 1 }]);
    expect(codex.lastTest).toMatchObject({ outcome: "failed", command: "npm test" });

    // Keyset pages: newest first, no overlap, all of them.
    const seen: number[] = [];
    let cursor: number | null = null;
    for (let page = 0; page < 10; page++) {
      const result: TimelineResponse = await getJson<TimelineResponse>(dashboard, `/api/timeline?project=${pa.id}&session=claude-1&limit=3${cursor === null ? "" : `&before=${cursor}`}`);
      seen.push(...result.events.map((e) => e.id));
      cursor = result.next;
      if (cursor === null) break;
    }
    expect(seen.length).toBe(9);
    expect([...seen].sort((x, y) => y - x)).toEqual(seen);
    expect(new Set(seen).size).toBe(seen.length);
    const hooksRun = sessions.hooks.find((s) => s.agent === "@dev")?.run as string;
    const run = await getJson<SessionDetail>(dashboard, `/api/session?project=${pa.id}&run=${encodeURIComponent(hooksRun)}`);
    expect(run.kind).toBe("hooks");
    expect(run.harnessSessions.map((s) => s.id)).toEqual(["claude-1"]);
    const runPage = await getJson<TimelineResponse>(dashboard, `/api/timeline?project=${pa.id}&run=${encodeURIComponent(hooksRun)}&limit=4`);
    expect(runPage.events.map((e) => e.kind)).toEqual(["compaction", "file", "file", "file"]);
  });

  test("compactions count as the recap counts them; the guard kit's decisions show in both kinds of session", async () => {
    const home = tempDir("aioson-home-");
    const project = tempProject();
    const session = { session_id: "c-1", cwd: project };
    emit(project, home, writePayload(project, "c-1", "a.ts"));
    // Two PreCompact markers in a row: Claude's wait for a confirmation, and a later one replaces the first.
    emit(project, home, JSON.stringify({ ...session, hook_event_name: "PreCompact", trigger: "auto" }));
    emit(project, home, JSON.stringify({ ...session, hook_event_name: "PreCompact", trigger: "auto" }));
    const dashboard = await start([project, "--no-open", "--port=0"], home);
    const id = (await getJson<ProjectsResponse>(dashboard, "/api/projects")).projects[0]?.id as string;
    const first = await getJson<SessionDetail>(dashboard, `/api/session?project=${id}&session=c-1`);
    expect(first.compactionCount).toBe(1);
    expect(first.compactions.length).toBe(1);
    // The harness's SessionStart(compact) confirms the newest; a third marker follows.
    expect(runAioson(["hooks:recap", project, "--json"], { home, stdin: JSON.stringify({ ...session, hook_event_name: "SessionStart", source: "compact" }) }).code).toBe(0);
    emit(project, home, JSON.stringify({ ...session, hook_event_name: "PreCompact", trigger: "manual" }));
    const second = await getJson<SessionDetail>(dashboard, `/api/session?project=${id}&session=c-1`);
    expect(second.compactionCount).toBe(2);
    expect(second.compactions.map((c) => c.trigger)).toEqual(["auto", "manual"]);
    // A guard of the kit asks before a push: a standalone guard_decision row with the session id.
    const push = runAioson(["guard:pre-commit-guard", project], { home, cwd: project, stdin: JSON.stringify({ ...session, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "git push" } }) });
    expect(push.code).toBe(0);
    const harness = await getJson<SessionDetail>(dashboard, `/api/session?project=${id}&session=c-1`);
    expect(harness.guardCounts.ask).toBe(1);
    expect(harness.guard[0]).toMatchObject({ verdict: "ask", guard: "pre-commit-guard" });
    const sessions = await getJson<SessionsResponse>(dashboard, `/api/sessions?project=${id}`);
    const run = sessions.hooks[0]?.run as string;
    const hooks = await getJson<SessionDetail>(dashboard, `/api/session?project=${id}&run=${encodeURIComponent(run)}`);
    expect(hooks.guard.map((g) => `${g.verdict} ${g.guard}`)).toEqual(["ask pre-commit-guard"]);
    const timeline = await getJson<TimelineResponse>(dashboard, `/api/timeline?project=${id}&session=c-1`);
    expect(timeline.events.slice(0, 3).map((e) => `${e.kind} ${e.verdict}`)).toEqual(["guard ask", "compaction manual", "compaction confirmed"]);
  });

  test("a new event is pushed to every subscriber, once, through the stream", async () => {
    const home = tempDir("aioson-home-");
    const project = tempProject();
    emit(project, home, writePayload(project, "p-1", "before.ts"));
    const dashboard = await start([project, "--no-open", "--port=0"], home);
    const id = (await getJson<ProjectsResponse>(dashboard, "/api/projects")).projects[0]?.id as string;
    const subscribers = await Promise.all(
      [0, 1, 2].map(async () => {
        const response = await get(dashboard, `/api/stream?project=${id}`);
        expect(response.headers.get("content-type")).toContain("text/event-stream");
        return (response.body as ReadableStream<Uint8Array>).getReader();
      }),
    );
    const next = async (reader: (typeof subscribers)[number]): Promise<PushMessage> => {
      let text = "";
      for (;;) {
        const { value } = await reader.read();
        text += new TextDecoder().decode(value);
        const data = text.split("\n").find((line) => line.startsWith("data: "));
        if (data) return JSON.parse(data.slice(6)) as PushMessage;
      }
    };
    const waiting = subscribers.map(next);
    emit(project, home, writePayload(project, "p-1", "after.ts"));
    for (const message of await Promise.all(waiting)) {
      expect(message.project).toBe(id);
      expect(message.events.map((e) => `${e.kind} ${e.text} ${e.session}`)).toEqual(["file Write: after.ts p-1"]);
    }
    for (const reader of subscribers) await reader.cancel();
  });
});
