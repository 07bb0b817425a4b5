/**
 * The dashboard's JSON API: the shapes the server sends and the page reads (types only, shared by both sides).
 * Every string in them that came from a store, a config or a log is recorded data: the page renders it as text.
 */

export type ProjectSummary = {
  /** Stable id of the project in this run's URLs (a hash of its root); the page never sends a path. */
  id: string;
  root: string;
  name: string;
  /** False when the store is missing or could not be opened (see `problem`). */
  store: boolean;
  problem: string | null;
  /** Highest event id: about the number of events recorded. */
  events: number;
  lastEventAt: string | null;
  /** Open hooks/guard/live sessions (`agent_runs` with source live, running or queued). */
  openSessions: number;
  liveRuns: number;
  /** Events per hour over the 24 hours before the last event, oldest first. */
  activity: number[];
};

export type ProjectsResponse = { projects: ProjectSummary[]; single: boolean };

export type Owner = "hooks" | "guard" | "live";

/** A hooks, guard or live session: one `source='live'` run (spec 2.6). */
export type HooksSession = {
  run: string;
  sessionKey: string | null;
  agent: string;
  harness: string | null;
  owner: Owner;
  title: string | null;
  status: string;
  open: boolean;
  startedAt: string;
  finishedAt: string | null;
  lastEventAt: string | null;
  events: number;
};

/** One conversation of a harness (its `session_id`), inside the hooks session it wrote to. */
export type HarnessSession = {
  id: string;
  run: string | null;
  agent: string | null;
  harness: string | null;
  startedAt: string;
  lastEventAt: string;
  lastType: string;
  /**
   * closed: its run is closed or it recorded a session end; idle: nothing recorded for IDLE_MINUTES (session:guard's
   * default idle timeout) though nothing closed it; open otherwise.
   */
  state: "open" | "idle" | "closed";
  open: boolean;
  events: number;
};

export type SessionFilters = { harness: string | null; agent: string | null; status: "open" | "idle" | "closed" | null };

export const IDLE_MINUTES = 60;

export type SessionsResponse = {
  project: ProjectSummary;
  hooks: HooksSession[];
  harness: HarnessSession[];
  /** Harness sessions matching the filters; `harness` holds the most recent `limit` of them. */
  harnessMatching: number;
  /** All harness sessions, at most HARNESS_SESSIONS_MAX (`harnessCapped` when there are more). */
  harnessTotal: number;
  harnessCapped: boolean;
  /** Values seen, for the filter menus. */
  harnesses: string[];
  agents: string[];
};

export type EventKind = "file" | "command" | "plan" | "compaction" | "activation" | "message" | "guard" | "session" | "note";

export type ViewEvent = {
  id: number;
  ts: string;
  type: string;
  kind: EventKind;
  text: string;
  run: string | null;
  session: string | null;
  agent: string | null;
  tool: string | null;
  /** Commands: passed / failed / unknown; guard decisions: deny / ask / block; injections: injected. */
  verdict: string | null;
  detail: string | null;
};

export type TimelineResponse = { events: ViewEvent[]; next: number | null };

export type PlanView = { done: number; total: number; items: Array<{ content: string; status: "completed" | "in_progress" | "pending" }> };

export type GuardEntry = { id: number; ts: string; verdict: string; guard: string; text: string; file: string | null; rules: string[] };

export type RuleUsage = { path: string; injections: number; fixed: number; still_present: number; file_gone: number };

export type Series = { label: string; counts: number[] };
export type ActivityChart = { start: string | null; bucketMs: number; series: Series[] };
export type TestPoint = { ts: string; outcome: "passed" | "failed"; command: string; summary: string | null };

export type SessionDetail = {
  kind: "harness" | "hooks";
  id: string;
  title: string;
  agent: string | null;
  harness: string | null;
  run: string | null;
  startedAt: string | null;
  lastEventAt: string | null;
  open: boolean;
  state: HarnessSession["state"];
  events: number;
  files: Array<{ path: string; edits: number }>;
  filesWindow: number | null;
  failing: Array<{ command: string; exitCode: number | null }>;
  lastTest: TestPoint | null;
  plan: PlanView | null;
  /** The newest compactions, oldest first, and how many there are in all. */
  compactions: Array<{ id: number; ts: string; trigger: string | null }>;
  compactionCount: number;
  /** What `hooks:recap` would inject for this session now (null: nothing recorded to rebuild from). */
  checkpoint: string | null;
  guard: GuardEntry[];
  guardCounts: { injected: number; deny: number; ask: number; block: number };
  usage: { injections: number; fixed: number; still_present: number; file_gone: number; rules: RuleUsage[] };
  activity: ActivityChart;
  tests: TestPoint[];
  /** The harness sessions of a hooks session, most recent first. */
  harnessSessions: HarnessSession[];
};

export type HarnessHealth = {
  tool: string;
  path: string;
  installed: boolean;
  handlers: Array<{ event: string; matcher: string | null }>;
};

export type HookFired = { hook: string; harness: string | null; eventType: string; ts: string };
export type LogLine = { ts: string | null; command: string | null; text: string };
export type HealthIssue = { severity: string; tool: string | null; message: string; fix: string };

export type HealthResponse = {
  harnesses: HarnessHealth[];
  issues: HealthIssue[];
  fired: HookFired[];
  log: LogLine[];
};

export type ChartsResponse = { activity: ActivityChart; tests: TestPoint[] };

/** Server push (`/api/stream`): the new events of a project; none means "reload" (a burst, or its store appeared). */
export type PushMessage = { project: string; last: number; events: ViewEvent[] };
