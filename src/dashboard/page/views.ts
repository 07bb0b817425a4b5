/** The dashboard's views: projects, a project's sessions and hook health, a session with its live timeline. */
import type {
  ChartsResponse,
  HarnessSession,
  HealthResponse,
  HooksSession,
  ProjectSummary,
  ProjectsResponse,
  PushMessage,
  SessionDetail,
  SessionsResponse,
  TimelineResponse,
  ViewEvent,
} from "../api.ts";
import { activityBars, sparkline, testStrip } from "./charts.ts";
import { debounce, get, subscribe } from "./client.ts";
import { badge, count, empty, h, link, panel, replace, s, time, when, type Child } from "./dom.ts";

export type Crumb = { label: string; href?: string };

export type ViewContext = {
  main: HTMLElement;
  crumbs: (items: Crumb[]) => void;
  live: (connected: boolean) => void;
  /** Called when the view is left; a view registers what it must close. */
  onLeave: (cleanup: () => void) => void;
};

const RELOAD_MS = 700;
/** Views also redraw on their own this often: "3 min ago" moves on, a session turns idle, a project appears. */
const REFRESH_MS = 60_000;
/** Items of a long list shown in a panel (the newest). */
const LIST_SHOWN = 8;

function sessionTone(open: boolean): string {
  return open ? "ok" : "muted";
}

function table(headers: readonly string[], rows: readonly HTMLElement[], emptyText: string): HTMLElement {
  if (rows.length === 0) return empty(emptyText);
  return h("div", { class: "table-wrap" }, h("table", null, h("thead", null, h("tr", null, ...headers.map((title) => h("th", null, title)))), h("tbody", null, ...rows)));
}

function row(href: string, ...cells: Child[]): HTMLElement {
  const tr = h("tr", { class: "clickable", attrs: { tabindex: "0" } }, ...cells.map((cell) => h("td", null, cell)));
  const go = () => {
    location.hash = href;
  };
  tr.addEventListener("click", go);
  tr.addEventListener("keydown", (event) => {
    if (event.key === "Enter") go();
  });
  return tr;
}

function mono(text: string, title?: string): HTMLElement {
  return h("span", { class: "mono", title: title ?? text }, text);
}

/* ---------- projects ---------- */

function projectCard(project: ProjectSummary): HTMLElement {
  const stats = project.store
    ? h("div", { class: "stats" },
        h("span", null, h("b", null, count(project.events)), " events"),
        h("span", null, h("b", null, String(project.openSessions)), " open session", project.openSessions === 1 ? "" : "s"),
        h("span", null, "last ", when(project.lastEventAt)))
    : h("div", { class: "stats" }, project.problem ? badge("unreadable", "bad") : badge("no events yet", "muted"), project.problem ? h("span", { class: "muted" }, project.problem) : null);
  return h(
    "a",
    { class: "card project-card", href: link("p", project.id) },
    h("div", { class: "card-head" }, h("h3", null, project.name), project.openSessions > 0 ? badge("live", "ok") : null),
    mono(project.root),
    stats,
    h("div", { class: "spark-row", title: "Events per hour, the 24 hours before the last event" }, sparkline(project.activity)),
  );
}

export async function projectsView(ctx: ViewContext): Promise<void> {
  ctx.crumbs([{ label: "Projects" }]);
  const render = async () => {
    const data = await get<ProjectsResponse>("/api/projects");
    if (data.single && data.projects[0]) {
      location.replace(link("p", data.projects[0].id));
      return;
    }
    replace(
      ctx.main,
      h("div", { class: "page-head" }, h("h1", null, "Projects"), h("p", { class: "muted" }, `${data.projects.length} project(s) with a store on this machine`)),
      data.projects.length === 0
        ? empty("No project has recorded anything yet. Run `aioson init` in a repository, then use your agent there.")
        : h("div", { class: "cards" }, ...data.projects.map(projectCard)),
    );
  };
  await render();
  const reload = debounce(() => void render().catch(() => undefined), RELOAD_MS);
  const push = subscribe(null, reload, ctx.live);
  const timer = setInterval(reload, REFRESH_MS);
  ctx.onLeave(() => {
    push.close();
    clearInterval(timer);
  });
}

/* ---------- a project ---------- */

function hooksRow(project: string, session: HooksSession): HTMLElement {
  return row(
    link("p", project, "r", session.run),
    h("span", { class: "strong" }, session.agent),
    session.harness ?? "—",
    session.owner,
    badge(session.open ? "open" : session.status, sessionTone(session.open)),
    when(session.startedAt),
    when(session.lastEventAt),
    count(session.events),
  );
}

const STATE_TONE: Record<HarnessSession["state"], string> = { open: "ok", idle: "warn", closed: "muted" };

function harnessRow(project: string, session: HarnessSession): HTMLElement {
  return row(
    link("p", project, "h", session.id),
    mono(session.id),
    session.agent ?? "—",
    session.harness ?? "—",
    badge(session.state, STATE_TONE[session.state]),
    when(session.startedAt),
    when(session.lastEventAt),
    count(session.events),
  );
}

type Filters = { harness: string; agent: string; status: string; limit: number };
const SESSIONS_STEP = 30;

function select(label: string, values: readonly string[], current: string, onChange: (value: string) => void): HTMLElement {
  const el = h("select", { attrs: { "aria-label": label } }, h("option", { attrs: { value: "" } }, `${label}: all`), ...values.map((value) => h("option", { attrs: { value } }, value)));
  el.value = current;
  el.addEventListener("change", () => onChange(el.value));
  return h("label", { class: "filter" }, el);
}

function healthView(data: HealthResponse): HTMLElement {
  const harnesses = data.harnesses.map((harness) =>
    h("div", { class: "card small" },
      h("div", { class: "card-head" }, h("h3", null, harness.tool), badge(harness.installed ? "installed" : "not installed", harness.installed ? "ok" : "muted")),
      mono(harness.path),
      harness.handlers.length > 0 ? h("ul", { class: "chips" }, ...harness.handlers.map((handler) => h("li", null, handler.matcher ? `${handler.event} (${handler.matcher})` : handler.event))) : null),
  );
  const issues = data.issues.map((issue) =>
    h("li", { class: `issue ${issue.severity}` }, badge(issue.severity, issue.severity === "error" ? "bad" : issue.severity === "warning" ? "warn" : "muted"),
      h("div", null, h("p", null, issue.tool ? `[${issue.tool}] ` : "", issue.message), h("p", { class: "fix" }, "fix: ", mono(issue.fix)))),
  );
  return h(
    "div",
    { class: "health" },
    panel("Installed hooks (read from each harness's config; nothing is run)", h("div", { class: "cards" }, ...harnesses)),
    panel("Problems", issues.length > 0 ? h("ul", { class: "issues" }, ...issues) : empty("hooks:doctor's inspection finds no problem.")),
    panel("Last fired", table(["hook", "harness", "when"], data.fired.map((fired) => h("tr", null, h("td", null, fired.hook), h("td", null, fired.harness ?? "—"), h("td", null, when(fired.ts)))), "No hook has recorded an event in this project yet.")),
    panel("hooks.log", data.log.length > 0 ? h("ul", { class: "log" }, ...data.log.map((line) => h("li", null, h("span", { class: "muted" }, line.ts ? time(line.ts) : ""), " ", line.command ? h("b", null, line.command) : null, " ", line.text))) : empty("No problem logged by the hooks.")),
  );
}

export async function projectView(ctx: ViewContext, projectId: string, tab: "sessions" | "health"): Promise<void> {
  const filters: Filters = { harness: "", agent: "", status: "", limit: SESSIONS_STEP };
  const sessionsBox = h("div", { class: "sessions" });
  const chartsBox = h("div", { class: "grid two" });
  const head = h("div", { class: "page-head" });
  const tabs = h("nav", { class: "tabs" });
  const body = h("div", null);
  replace(ctx.main, head, tabs, body);

  const renderHead = (p: ProjectSummary) => {
    ctx.crumbs([{ label: "Projects", href: "#/" }, { label: p.name }]);
    replace(head,
      h("h1", null, p.name),
      mono(p.root),
      p.problem
        ? h("p", { class: "stats" }, badge("unreadable", "bad"), h("span", null, p.problem))
        : h("p", { class: "stats" }, h("span", null, h("b", null, count(p.events)), " events"), h("span", null, h("b", null, String(p.openSessions)), " open"), h("span", null, "last event ", when(p.lastEventAt))));
    replace(tabs,
      h("a", { href: link("p", projectId), class: tab === "sessions" ? "active" : "" }, "Sessions"),
      h("a", { href: link("p", projectId, "health"), class: tab === "health" ? "active" : "" }, "Hook health"));
  };
  const renderSessions = async () => {
    const data = await get<SessionsResponse>("/api/sessions", { project: projectId, ...filters });
    renderHead(data.project);
    if (tab !== "sessions") return;
    if (!data.project.store) {
      // A project whose store is missing (its first hook creates it) or unreadable (the header says why).
      replace(sessionsBox, empty(data.project.problem ? "The store cannot be read safely: nothing is shown." : "No event recorded in this project yet: this page fills in as soon as a hook records one."));
      return;
    }
    const rerender = () => void renderSessions();
    replace(sessionsBox,
      h("div", { class: "filters" },
        select("harness", data.harnesses, filters.harness, (value) => { filters.harness = value; rerender(); }),
        select("agent", data.agents, filters.agent, (value) => { filters.agent = value; rerender(); }),
        select("status", ["open", "idle", "closed"], filters.status, (value) => { filters.status = value; rerender(); })),
      panel("Hooks sessions", table(["agent", "harness", "owner", "status", "started", "last event", "events"], data.hooks.map((session) => hooksRow(projectId, session)), "No hooks session matches.")),
      panel(`Harness sessions · ${data.harness.length < data.harnessMatching ? `the latest ${data.harness.length} of ` : ""}${count(data.harnessMatching)}${data.harnessMatching < data.harnessTotal ? ` (of ${count(data.harnessTotal)})` : ""}${data.harnessCapped ? " — the store has more; only these were read" : ""}`,
        table(["session", "agent", "harness", "status", "started", "last event", "events"], data.harness.map((session) => harnessRow(projectId, session)), "No harness session matches."),
        data.harness.length < data.harnessMatching
          ? h("button", { class: "more", attrs: { type: "button" }, on: { click: () => { filters.limit += SESSIONS_STEP; rerender(); } } }, "Show more sessions")
          : null));
  };
  const renderCharts = async () => {
    const charts = await get<ChartsResponse>("/api/charts", { project: projectId });
    replace(chartsBox, panel("Activity by agent (latest events)", activityBars(charts.activity)), panel("Test runs", testStrip(charts.tests)));
  };

  if (tab === "health") {
    await renderSessions();
    replace(body, healthView(await get<HealthResponse>("/api/health", { project: projectId })));
    return;
  }
  replace(body, chartsBox, sessionsBox);
  await Promise.all([renderSessions(), renderCharts()]);
  const reload = debounce(() => {
    void Promise.all([renderSessions(), renderCharts()]).catch(() => undefined);
  }, RELOAD_MS);
  const push = subscribe(projectId, reload, ctx.live);
  const timer = setInterval(reload, REFRESH_MS);
  ctx.onLeave(() => {
    push.close();
    clearInterval(timer);
  });
}

/* ---------- a session ---------- */

const KIND_LABEL: Record<ViewEvent["kind"], string> = {
  file: "file",
  command: "command",
  plan: "plan",
  compaction: "compaction",
  activation: "activation",
  message: "message",
  guard: "guard",
  session: "session",
  note: "note",
};

function clock(ts: string): string {
  const at = new Date(ts);
  if (Number.isNaN(at.getTime())) return ts;
  const today = new Date().toDateString() === at.toDateString();
  return today ? at.toLocaleTimeString() : `${at.toLocaleDateString()} ${at.toLocaleTimeString()}`;
}

export function eventItem(event: ViewEvent, fresh = false): HTMLElement {
  return h(
    "li",
    { class: `event kind-${event.kind}${fresh ? " fresh" : ""}`, attrs: { "data-id": String(event.id) } },
    h("time", { title: time(event.ts), attrs: { datetime: event.ts } }, clock(event.ts)),
    h("span", { class: "kind" }, KIND_LABEL[event.kind]),
    h("div", { class: "event-body" },
      h("p", { class: "event-text" }, event.text || event.type, event.verdict ? h("span", { class: `verdict ${event.verdict}` }, event.verdict) : null),
      event.detail ? h("p", { class: "event-detail" }, event.detail) : null),
    h("span", { class: "who" }, [event.agent, event.tool].filter(Boolean).join(" · ")),
  );
}

function planPanel(detail: SessionDetail): HTMLElement {
  const plan = detail.plan;
  if (!plan) return panel("Plan", empty("No plan recorded."));
  const pct = plan.total > 0 ? Math.round((plan.done / plan.total) * 100) : 0;
  const bar = s("svg", { viewBox: "0 0 100 6", preserveAspectRatio: "none", class: "progress", role: "progressbar", "aria-valuenow": pct, "aria-valuemin": 0, "aria-valuemax": 100 },
    s("rect", { width: 100, height: 6, rx: 3, class: "track" }), s("rect", { width: pct, height: 6, rx: 3, class: "fill" }));
  return panel(`Plan · ${plan.done} of ${plan.total} done`, bar,
    h("ul", { class: "plan" }, ...plan.items.map((item) => h("li", { class: `plan-item ${item.status}` }, h("span", { class: "mark" }, item.status === "completed" ? "✓" : item.status === "in_progress" ? "◐" : "○"), item.content))));
}

function testsPanel(detail: SessionDetail): HTMLElement {
  const last = detail.lastTest;
  return panel("Tests and commands",
    last
      ? h("div", { class: "last-test" }, h("span", { class: `verdict big ${last.outcome}` }, last.outcome), h("div", null, mono(`$ ${last.command}`), last.summary ? h("p", { class: "muted" }, last.summary) : null, last.ts ? h("p", { class: "muted" }, when(last.ts)) : null))
      : empty("No test run recorded."),
    h("h3", null, "Still failing"),
    detail.failing.length > 0
      ? h("ul", { class: "failing" }, ...detail.failing.slice(0, LIST_SHOWN).map((f) => h("li", null, mono(`$ ${f.command}`), f.exitCode !== null ? h("span", { class: "muted" }, ` (exit ${f.exitCode})`) : null)),
          detail.failing.length > LIST_SHOWN ? h("li", { class: "muted" }, `and ${detail.failing.length - LIST_SHOWN} more`) : null)
      : empty("No command is still failing."),
    testStrip(detail.tests));
}

function filesPanel(detail: SessionDetail): HTMLElement {
  return panel(`Files changed · ${detail.files.length}${detail.filesWindow ? ` (in the latest ${count(detail.filesWindow)} file events)` : ""}`,
    detail.files.length > 0
      ? h("ul", { class: "files" }, ...detail.files.map((file) => h("li", null, mono(file.path), h("span", { class: "muted" }, ` ×${file.edits}`))))
      : empty("No file changed."));
}

function compactionPanel(detail: SessionDetail): HTMLElement {
  const latest = detail.compactions.slice(-LIST_SHOWN).reverse();
  return panel(`Compactions · ${count(detail.compactionCount)}`,
    latest.length > 0
      ? h("ol", { class: "compactions" }, ...latest.map((c) => h("li", null, when(c.ts), c.trigger ? h("span", { class: "muted" }, ` ${c.trigger}`) : null)))
      : empty("No compaction recorded."),
    h("h3", null, "Checkpoint hooks:recap would inject now"),
    detail.checkpoint ? h("pre", { class: "checkpoint" }, detail.checkpoint) : empty("Nothing recorded to rebuild a checkpoint from."));
}

function guardPanel(detail: SessionDetail): HTMLElement {
  const c = detail.guardCounts;
  return panel("Guard decisions",
    h("div", { class: "chips big" }, badge(`${c.deny} denied`, c.deny ? "bad" : "muted"), badge(`${c.ask} asked`, c.ask ? "warn" : "muted"), badge(`${c.block} blocked`, c.block ? "bad" : "muted"), badge(`${c.injected} rule injection${c.injected === 1 ? "" : "s"}`, c.injected ? "info" : "muted")),
    detail.guard.length > 0
      ? h("ul", { class: "decisions" }, ...detail.guard.slice(0, LIST_SHOWN).map((g) =>
          h("li", null,
            h("p", null, h("span", { class: `verdict first ${g.verdict}` }, g.verdict), " ", h("b", null, g.guard), " ", h("span", { class: "muted" }, when(g.ts))),
            h("p", { class: "muted" }, g.file ? mono(g.file) : null, g.file ? " · " : null, g.text))))
      : empty("No guard decision or injection recorded."));
}

function usagePanel(detail: SessionDetail): HTMLElement {
  const u = detail.usage;
  return panel("Rules offered → honoured",
    h("p", { class: "muted" }, `context:usage over the last 30 days: ${u.injections} injection(s) — violations fixed ${u.fixed}, still present ${u.still_present}, file gone ${u.file_gone}.`),
    u.rules.length > 0
      ? h("ul", { class: "rules" }, ...u.rules.map((r) =>
          h("li", null, mono(r.path),
            h("p", { class: "muted" }, `injected ${r.injections} · fixed ${r.fixed} · `, h("span", { class: r.still_present ? "bad-text" : "" }, `still present ${r.still_present}`), r.file_gone ? ` · file gone ${r.file_gone}` : null))))
      : empty("No rule injected in this session."));
}

function wide(element: HTMLElement): HTMLElement {
  element.classList.add("wide");
  return element;
}

function full(element: HTMLElement): HTMLElement {
  element.classList.add("full");
  return element;
}

export async function sessionView(ctx: ViewContext, projectId: string, kind: "h" | "r", key: string): Promise<void> {
  const scope = kind === "h" ? { session: key } : { run: key };
  const head = h("div", { class: "page-head" });
  const panels = h("div", { class: "grid" });
  const list = h("ol", { class: "timeline" });
  const more = h("button", { class: "more", attrs: { type: "button" } }, "Load older events");
  const seen = new Set<number>();
  let next: number | null = null;
  replace(ctx.main, head, panels, panel("Timeline", h("p", { class: "muted" }, "Live: new events appear at the top as hooks record them."), list, more));

  const renderDetail = async () => {
    const detail = await get<SessionDetail>("/api/session", { project: projectId, ...scope });
    const projects = await get<ProjectsResponse>("/api/projects").catch(() => null);
    const projectName = projects?.projects.find((p) => p.id === projectId)?.name ?? "project";
    ctx.crumbs([{ label: "Projects", href: "#/" }, { label: projectName, href: link("p", projectId) }, { label: detail.kind === "hooks" ? detail.title : detail.id }]);
    replace(head,
      h("h1", null, detail.kind === "hooks" ? detail.title : mono(detail.id)),
      h("p", { class: "stats" },
        badge(detail.state, STATE_TONE[detail.state]),
        h("span", null, detail.kind === "hooks" ? "hooks session" : "harness session"),
        h("span", null, h("b", null, detail.agent ?? "—")),
        h("span", null, "via ", h("b", null, detail.harness ?? "—")),
        h("span", null, h("b", null, count(detail.events)), " events"),
        h("span", null, "started ", when(detail.startedAt)),
        h("span", null, "last ", when(detail.lastEventAt))));
    const blocks: HTMLElement[] = [planPanel(detail), testsPanel(detail), filesPanel(detail), wide(compactionPanel(detail)), guardPanel(detail), wide(panel("Activity", activityBars(detail.activity))), usagePanel(detail)];
    if (detail.kind === "hooks") {
      blocks.push(full(panel(`Harness sessions · ${detail.harnessSessions.length}`, table(["session", "agent", "harness", "status", "started", "last event", "events"], detail.harnessSessions.map((session) => harnessRow(projectId, session)), "No harness session recorded in this hooks session."))));
    }
    replace(panels, ...blocks);
  };

  const loadPage = async () => {
    const page = await get<TimelineResponse>("/api/timeline", { project: projectId, ...scope, before: next });
    for (const event of page.events) {
      if (seen.has(event.id)) continue;
      seen.add(event.id);
      list.appendChild(eventItem(event));
    }
    next = page.next;
    more.hidden = next === null;
    if (seen.size === 0) list.replaceChildren(h("li", { class: "empty" }, "No event recorded."));
  };
  more.addEventListener("click", () => void loadPage());

  await Promise.all([renderDetail(), loadPage()]);
  const refresh = debounce(() => void renderDetail().catch(() => undefined), RELOAD_MS * 2);
  const belongs = (event: ViewEvent) => (kind === "h" ? event.session === key : event.run === key);
  const onPush = (message: PushMessage) => {
    const mine = message.events.filter(belongs).filter((event) => !seen.has(event.id));
    if (message.events.length === 0) {
      // Too many at once to push: reload the newest page.
      next = null;
      seen.clear();
      list.replaceChildren();
      void loadPage();
      refresh();
      return;
    }
    if (mine.length === 0) return;
    list.querySelector(":scope > li.empty")?.remove();
    for (const event of mine) {
      seen.add(event.id);
      list.insertBefore(eventItem(event, true), list.firstChild);
    }
    refresh();
  };
  const push = subscribe(projectId, onPush, ctx.live);
  ctx.onLeave(push.close);
}
