/**
 * The dashboard's HTTP server: the embedded page, a read-only JSON API over the projects' stores and a push of new
 * events. Every request passes the checks of security.ts first; every response carries SECURITY_HEADERS.
 */
import type { Database } from "bun:sqlite";
import * as v from "valibot";
import type { ChartsResponse, ProjectSummary, SessionFilters, SessionsResponse } from "./api.ts";
import { loadAssets, type Asset } from "./assets.ts";
import { AnswerCache } from "./cache.ts";
import { projectCharts } from "./charts.ts";
import { harnessDetail, runDetail } from "./detail.ts";
import { projectHealth } from "./health.ts";
import { Projects, type Project } from "./projects.ts";
import { eventStream, PushHub } from "./push.ts";
import { HARNESS_SESSIONS_MAX, SESSIONS_MAX, SESSIONS_PAGE, TIMELINE_MAX, TIMELINE_PAGE, allHarnessSessions, countEvents, harnessSession, liveRuns, matches, projectSummary, timeline } from "./queries.ts";
import { SECURITY_HEADERS, hasValidCookie, hasValidUrlToken, newToken, refuseRequest, sessionCookie } from "./security.ts";
import { StorePool, StoreProblem } from "./stores.ts";

export type DashboardOptions = {
  /** Only this project (a project root), else every project of the registry. */
  root: string | null;
  host: string;
  port: number;
};

export type Dashboard = { url: string; port: number; stop: () => void };

/** Projects watched live on the projects page (the most recently active ones). */
const WATCHED_PROJECTS = 32;
const ID_MAX = 1_000;
/** An answer that took longer than this to compute is followed by a garbage collection. */
const HEAVY_MS = 20;

const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(ID_MAX));
const ProjectParam = v.pipe(v.string(), v.regex(/^[0-9a-f]{16}$/));
const Cursor = v.pipe(v.string(), v.regex(/^\d{1,15}$/), v.transform(Number));
const SessionQuery = v.object({ project: ProjectParam, session: v.optional(Id), run: v.optional(Id), before: v.optional(Cursor), limit: v.optional(Cursor) });
const FiltersQuery = v.object({
  project: ProjectParam,
  harness: v.optional(v.pipe(v.string(), v.maxLength(ID_MAX))),
  agent: v.optional(v.pipe(v.string(), v.maxLength(ID_MAX))),
  status: v.optional(v.picklist(["open", "idle", "closed", ""])),
  limit: v.optional(Cursor),
});
const ProjectQuery = v.object({ project: ProjectParam });
const StreamQuery = v.object({ project: v.optional(ProjectParam) });

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function query<T extends v.GenericSchema>(schema: T, url: URL): v.InferOutput<T> {
  const parsed = v.safeParse(schema, Object.fromEntries(url.searchParams));
  if (!parsed.success) throw new HttpError(400, `Bad request: ${parsed.issues.map((issue) => issue.message).join("; ")}`);
  return parsed.output;
}

function jsonBody(body: string, status = 200): Response {
  return new Response(body, { status, headers: { ...SECURITY_HEADERS, "Content-Type": "application/json; charset=utf-8" } });
}

function json(value: unknown, status = 200): Response {
  return jsonBody(JSON.stringify(value), status);
}

function text(message: string, status: number): Response {
  return new Response(`${message}\n`, { status, headers: { ...SECURITY_HEADERS, "Content-Type": "text/plain; charset=utf-8" } });
}

class Api {
  readonly pool = new StorePool();
  readonly hub = new PushHub();
  readonly cache = new AnswerCache();

  constructor(readonly projects: Projects) {}

  project(id: string): Project {
    const found = this.projects.find(id);
    if (!found) throw new HttpError(404, "No such project.");
    return found;
  }

  /** The project's store; a project without one answers 404 (its first hook creates it). */
  db(project: Project): Database {
    let db: Database | null;
    try {
      db = this.pool.get(project.root);
    } catch (error) {
      throw new HttpError(409, error instanceof Error ? error.message : String(error));
    }
    if (!db) throw new HttpError(404, "No events recorded in this project yet.");
    return db;
  }

  /**
   * Answers a read as JSON, computed once per store change for every browser that asks the same `url` (cache.ts); a
   * store that fails under it is closed, so the next request opens it afresh.
   */
  read(project: Project, url: URL, work: (db: Database) => unknown): Response {
    const db = this.db(project);
    try {
      const key = `${url.pathname}?${[...url.searchParams].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, value]) => `${k}=${value}`).join("&")}`;
      return jsonBody(this.cache.get(key, this.pool.version(project.root), () => this.#measured(() => JSON.stringify(work(db)))));
    } catch (error) {
      if (error instanceof HttpError) throw error;
      this.pool.drop(project.root);
      throw new HttpError(500, `The store could not be read: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * A long session's panels read tens of thousands of rows into short-lived objects; left to itself the heap keeps
   * that garbage around while more answers pile theirs on, so a heavy answer is followed at once by a full
   * collection (a few milliseconds next to the answer's tens), which keeps the server within its memory budget
   * (docs/dashboard.md).
   */
  #measured(compute: () => string): string {
    const started = performance.now();
    const body = compute();
    if (performance.now() - started > HEAVY_MS) Bun.gc(true);
    return body;
  }

  summary(project: Project): ProjectSummary {
    const base = { id: project.id, root: project.root, name: project.name };
    const empty = { ...base, store: false, problem: null, events: 0, lastEventAt: null, openSessions: 0, liveRuns: 0, activity: new Array<number>(24).fill(0) };
    try {
      const db = this.pool.get(project.root);
      return db ? projectSummary(db, base) : empty;
    } catch (error) {
      this.pool.drop(project.root);
      return { ...empty, problem: error instanceof Error ? error.message : String(error) };
    }
  }

  projectsList(): Response {
    const list = this.projects.list().map((p) => this.summary(p));
    list.sort((a, b) => (b.lastEventAt ?? "").localeCompare(a.lastEventAt ?? ""));
    return json({ projects: list, single: this.projects.single !== null });
  }

  /** Whether `project` has a store that can be read (a project's first hook creates it). */
  #hasStore(project: Project): boolean {
    try {
      return this.pool.get(project.root) !== null;
    } catch {
      return false;
    }
  }

  sessions(url: URL): Response {
    const q = query(FiltersQuery, url);
    const project = this.project(q.project);
    const filters: SessionFilters = { harness: q.harness || null, agent: q.agent || null, status: q.status || null };
    if (!this.#hasStore(project)) {
      // Not an error for the page: it says why there is nothing and fills in when the store appears.
      const empty: SessionsResponse = { project: this.summary(project), hooks: [], harness: [], harnessMatching: 0, harnessTotal: 0, harnessCapped: false, harnesses: [], agents: [] };
      return json(empty);
    }
    return this.read(project, url, (db): SessionsResponse => {
      const runs = liveRuns(db);
      const all = allHarnessSessions(db, runs);
      const matching = all.filter((session) => matches(session, filters));
      return {
        project: projectSummary(db, project, runs),
        hooks: runs.filter((run) => matches(run, filters)).map(({ meta: _unused, ...run }) => run),
        harness: countEvents(db, matching.slice(0, Math.min(SESSIONS_MAX, Math.max(1, q.limit ?? SESSIONS_PAGE)))),
        harnessMatching: matching.length,
        harnessTotal: all.length,
        harnessCapped: all.length >= HARNESS_SESSIONS_MAX,
        harnesses: [...new Set([...runs, ...all].map((s) => s.harness).filter((h): h is string => h !== null))].sort(),
        agents: [...new Set([...runs.map((r) => r.agent), ...all.map((s) => s.agent)].filter((a): a is string => a !== null))].sort(),
      };
    });
  }

  timeline(url: URL): Response {
    const q = query(SessionQuery, url);
    const project = this.project(q.project);
    const limit = Math.min(TIMELINE_MAX, Math.max(1, q.limit ?? TIMELINE_PAGE));
    const scope = q.session !== undefined ? { kind: "harness" as const, id: q.session } : q.run !== undefined ? { kind: "run" as const, run: q.run } : null;
    if (!scope) throw new HttpError(400, "Bad request: session or run is required.");
    return this.read(project, url, (db) => timeline(db, scope, q.before ?? null, limit));
  }

  session(url: URL): Response {
    const q = query(SessionQuery, url);
    const project = this.project(q.project);
    return this.read(project, url, (db) => {
      const runs = liveRuns(db);
      if (q.session !== undefined) {
        const session = harnessSession(db, runs, q.session);
        if (!session) throw new HttpError(404, "No such session.");
        return harnessDetail(db, project.root, session, runs.find((run) => run.run === session.run));
      }
      const run = runs.find((r) => r.run === q.run);
      if (!run) throw new HttpError(404, "No such session.");
      return runDetail(db, project.root, run, allHarnessSessions(db, runs));
    });
  }

  health(url: URL): Response {
    const project = this.project(query(ProjectQuery, url).project);
    let store: Database | null;
    try {
      store = this.pool.get(project.root);
    } catch {
      // Hook health does not need the store: the configs and hooks.log are read without it.
      store = null;
    }
    return json(projectHealth(project.root, store, store ? liveRuns(store) : []));
  }

  charts(url: URL): Response {
    const project = this.project(query(ProjectQuery, url).project);
    if (!this.#hasStore(project)) return json({ activity: { start: null, bucketMs: 60_000, series: [] }, tests: [] } satisfies ChartsResponse);
    return this.read(project, url, (db) => projectCharts(db));
  }

  stream(url: URL, signal: AbortSignal): Response {
    const q = query(StreamQuery, url);
    const projects = q.project !== undefined ? [this.project(q.project)] : this.projects.list().slice(0, WATCHED_PROJECTS);
    return eventStream(this.hub, projects, SECURITY_HEADERS, signal);
  }

  route(url: URL, request: Request): Response {
    switch (url.pathname) {
      case "/api/projects":
        return this.projectsList();
      case "/api/sessions":
        return this.sessions(url);
      case "/api/timeline":
        return this.timeline(url);
      case "/api/session":
        return this.session(url);
      case "/api/health":
        return this.health(url);
      case "/api/charts":
        return this.charts(url);
      case "/api/stream":
        return this.stream(url, request.signal);
      default:
        throw new HttpError(404, "Not found.");
    }
  }

  close(): void {
    this.hub.close();
    this.pool.closeAll();
  }
}

function serveAsset(assets: Map<string, Asset>, path: string): Response {
  const asset = assets.get(path);
  if (!asset) return text("Not found.", 404);
  return new Response(asset.body, { headers: { ...SECURITY_HEADERS, "Content-Type": asset.contentType } });
}

const NO_TOKEN = "This dashboard needs the address `aioson dashboard` printed (it carries this run's token).";

function handler(api: Api, assets: Map<string, Asset>, token: string, port: () => number, host: string): (request: Request) => Response {
  return (request) => {
    const refusal = refuseRequest(request, port(), host);
    if (refusal) return text(refusal.message, refusal.status);
    const url = new URL(request.url);
    if (url.pathname === "/" && url.searchParams.has("token")) {
      if (!hasValidUrlToken(url, token)) return text(NO_TOKEN, 401);
      return new Response(null, { status: 303, headers: { ...SECURITY_HEADERS, Location: "/", "Set-Cookie": sessionCookie(port(), token) } });
    }
    if (!hasValidCookie(request, port(), token)) return text(NO_TOKEN, 401);
    if (!url.pathname.startsWith("/api/")) return serveAsset(assets, url.pathname);
    try {
      return api.route(url, request);
    } catch (error) {
      if (error instanceof HttpError) return json({ error: error.message }, error.status);
      if (error instanceof StoreProblem) return json({ error: error.message }, 409);
      return json({ error: error instanceof Error ? error.message : String(error) }, 500);
    }
  };
}

function isAddressInUse(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "EADDRINUSE" || /in use/i.test(error instanceof Error ? error.message : "");
}

/** Starts the server on `port`, or on a free port when that one is taken. */
export async function startDashboard(options: DashboardOptions): Promise<Dashboard> {
  const assets = await loadAssets();
  const token = newToken();
  const api = new Api(new Projects(options.root));
  let port = options.port;
  const serve = (listen: number) =>
    Bun.serve({ hostname: options.host, port: listen, idleTimeout: 60, fetch: handler(api, assets, token, () => port, options.host) });
  let server: ReturnType<typeof serve>;
  try {
    server = serve(options.port);
  } catch (error) {
    if (!isAddressInUse(error) || options.port === 0) throw error;
    server = serve(0);
  }
  port = server.port ?? options.port;
  const sweep = setInterval(() => api.pool.sweep(), 30_000);
  const urlHost = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    url: `http://${urlHost}:${port}/?token=${token}`,
    port,
    stop: () => {
      clearInterval(sweep);
      api.close();
      void server.stop(true);
    },
  };
}
