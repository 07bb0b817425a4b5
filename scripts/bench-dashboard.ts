/**
 * The dashboard on a store of 1M events (issue 17 "Scale"): first view in a real browser, a session's panels, the
 * timeline paged by keyset deep into the store, a new event's arrival by push, and the server's memory with 10
 * browsers connected. Builds dist/aioson first (unless --no-build) and keeps the big store under dist/bench-stores/
 * between runs.
 *
 *   bun scripts/bench-dashboard.ts [--events=1000000] [--runs=5] [--no-build]
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { SCHEMA_VERSION } from "../src/store/schema.ts";
import { buildBigStore, type BigStoreFacts } from "./big-store.ts";
import { compile, parseBuildFlags } from "./build.ts";
import { launchChromium } from "./chromium.ts";

const root = join(import.meta.dir, "..");
const binary = join(root, "dist", process.platform === "win32" ? "aioson.exe" : "aioson");
const argv = process.argv.slice(2);
const events = Number(argv.find((a) => a.startsWith("--events="))?.slice(9) ?? 1_000_000);
const runs = Number(argv.find((a) => a.startsWith("--runs="))?.slice(7) ?? 5);

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The cached store (rebuilt when the shape or the schema changes). */
function bigStore(): { dir: string; facts: BigStoreFacts } {
  const dir = join(root, "dist", "bench-stores", `dashboard-${events}-v${SCHEMA_VERSION}`);
  const factsFile = join(dir, "facts.json");
  if (existsSync(factsFile)) return { dir, facts: JSON.parse(readFileSync(factsFile, "utf8")) as BigStoreFacts };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, ".aioson"), { recursive: true });
  writeFileSync(join(dir, ".aioson", "config.md"), "# dashboard bench\n");
  const started = performance.now();
  const facts = buildBigStore(dir, { events });
  console.log(`built a ${facts.events}-event store in ${Math.round(performance.now() - started)} ms (${facts.harnessSessions} harness sessions)`);
  writeFileSync(factsFile, JSON.stringify(facts));
  return { dir, facts };
}

/** VmRSS (now) or VmHWM (the peak) of a process, in MiB (Linux). */
function rssMiB(pid: number, field: "VmRSS" | "VmHWM" = "VmRSS"): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith(`${field}:`)) ?? `${field}: 0 kB`;
  return Number(line.replace(/\D+/g, "")) / 1024;
}

async function startDashboard(dir: string, home: string): Promise<{ url: string; origin: string; proc: ReturnType<typeof Bun.spawn> }> {
  const proc = Bun.spawn([binary, "dashboard", dir, "--no-open", "--port=0", "--json"], { env: { ...process.env, HOME: home, XDG_CONFIG_HOME: "" }, stdout: "pipe", stderr: "inherit" });
  const reader = proc.stdout.getReader();
  let text = "";
  while (!text.includes("}")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the dashboard exited before printing its URL");
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const url = (JSON.parse(text) as { url: string }).url;
  return { url, origin: new URL(url).origin, proc };
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function main(): Promise<void> {
  if (!argv.includes("--no-build")) compile("host", parseBuildFlags([]));
  const { dir, facts } = bigStore();
  const home = mkdtempSync(join(tmpdir(), "aioson-bench-home-"));
  const { url, origin, proc } = await startDashboard(dir, home);
  const rows: Array<[string, string]> = [];
  const browser: Browser = await launchChromium();
  try {
    rows.push(["server RSS after start", `${rssMiB(proc.pid).toFixed(1)} MiB`]);
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForSelector(".sessions table tbody tr");
    const projectHash = new URL(page.url()).hash;
    // A hook writes before each view, as in a live project: no answer of the previous view can be reused.
    const touch = (i: number) => {
      const payload = JSON.stringify({ hook_event_name: "PostToolUse", session_id: facts.recentSession, tool_name: "Write", tool_input: { file_path: join(dir, `touched-${i}.ts`), content: "x" } });
      if (Bun.spawnSync([binary, "hooks:emit", dir], { stdin: new TextEncoder().encode(payload), env: { ...process.env, HOME: home } }).exitCode !== 0) throw new Error("hooks:emit failed");
    };
    const firstView: number[] = [];
    for (let i = 0; i < runs; i++) {
      touch(i);
      const fresh = await context.newPage();
      firstView.push(await timed(async () => {
        await fresh.goto(`${origin}/${projectHash}`);
        await fresh.waitForSelector(".sessions table tbody tr");
      }));
      await fresh.close();
    }
    rows.push([`first view (project page, sessions listed), median of ${runs}`, `${median(firstView).toFixed(0)} ms (max ${Math.max(...firstView).toFixed(0)})`]);
    rows.push(["server RSS peak so far", `${rssMiB(proc.pid, "VmHWM").toFixed(1)} MiB`]);
    const sessionView: number[] = [];
    for (let i = 0; i < runs; i++) {
      touch(runs + i);
      const fresh = await context.newPage();
      sessionView.push(await timed(async () => {
        await fresh.goto(`${origin}/${projectHash}/h/${encodeURIComponent(facts.bigSession)}`);
        await fresh.waitForSelector(".checkpoint");
        await fresh.waitForSelector(".timeline li.event");
      }));
      await fresh.close();
    }
    rows.push([`100k-event session page (panels, checkpoint, timeline), median of ${runs}`, `${median(sessionView).toFixed(0)} ms`]);
    rows.push(["server RSS peak so far", `${rssMiB(proc.pid, "VmHWM").toFixed(1)} MiB`]);
    const project = projectHash.split("/")[2] as string;
    const api = async (path: string) => {
      const response = await page.request.get(`${origin}${path}`);
      if (!response.ok()) throw new Error(`${path}: ${response.status()}`);
      return response.json() as Promise<{ next?: number | null }>;
    };
    const endpoints: Array<[string, string]> = [
      ["GET /api/projects", "/api/projects"],
      ["GET /api/sessions (3k harness sessions)", `/api/sessions?project=${project}`],
      ["GET /api/charts", `/api/charts?project=${project}`],
      ["GET /api/session, the 100k-event session", `/api/session?project=${project}&session=${encodeURIComponent(facts.bigSession)}`],
      ["GET /api/session, a 300-event session", `/api/session?project=${project}&session=${encodeURIComponent(facts.recentSession)}`],
      ["GET /api/session, the 900k-event hooks session", `/api/session?project=${project}&run=${encodeURIComponent(facts.longRun)}`],
      ["GET /api/health", `/api/health?project=${project}`],
    ];
    // An answer is computed once per store change and URL (cache.ts): a unique parameter forces the computation.
    for (const [label, path] of endpoints) {
      const computed: number[] = [];
      const cached: number[] = [];
      for (let i = 0; i < runs; i++) {
        const fresh = `${path}${path.includes("?") ? "&" : "?"}bench=${Date.now()}-${i}`;
        computed.push(await timed(() => api(fresh)));
        cached.push(await timed(() => api(fresh)));
      }
      rows.push([label, `${median(computed).toFixed(1)} ms (again, unchanged store: ${median(cached).toFixed(1)} ms)`]);
    }
    // Keyset paging: 50 pages of 100 from the newest event of the long run.
    let cursor: number | null = null;
    const pages: number[] = [];
    for (let i = 0; i < 50; i++) {
      pages.push(await timed(async () => {
        const result = await api(`/api/timeline?project=${project}&run=${encodeURIComponent(facts.longRun)}${cursor === null ? "" : `&before=${cursor}`}`);
        cursor = result.next ?? null;
      }));
    }
    rows.push(["timeline page of 100 (keyset), 50 pages deep into the 900k-event run", `median ${median(pages).toFixed(1)} ms, max ${Math.max(...pages).toFixed(1)} ms`]);
    rows.push(["server RSS after those views", `${rssMiB(proc.pid).toFixed(1)} MiB`]);

    // Ten browsers on the big session's page, each with its own push connection (a context each: one browser
    // profile keeps at most six HTTP/1.1 connections per host).
    const viewers = [];
    for (let i = 0; i < 10; i++) {
      const viewer = await (await browser.newContext({ viewport: { width: 1400, height: 1000 } })).newPage();
      await viewer.goto(url);
      await viewer.waitForSelector(".sessions table tbody tr");
      await viewer.goto(`${origin}/${projectHash}/h/${encodeURIComponent(facts.bigSession)}`);
      await viewer.waitForSelector(".timeline li.event");
      viewers.push(viewer);
    }
    await Bun.sleep(1_000);
    const states = await Promise.all(viewers.map((viewer) => viewer.locator("#live").textContent()));
    if (states.some((state) => state !== "live")) throw new Error(`not every browser is connected: ${states.join(", ")}`);
    rows.push(["server RSS with 10 browsers connected (10 SSE streams)", `${rssMiB(proc.pid).toFixed(1)} MiB`]);
    const latencies: number[] = [];
    for (let i = 0; i < runs; i++) {
      const marker = `bench push ${Date.now()}-${i}`;
      // Locators run in Playwright's own world: the page's CSP forbids evaluating strings in its own.
      const waiting = viewers.map((viewer) => viewer.locator(".timeline .event-text", { hasText: marker }).first().waitFor({ timeout: 5_000 }));
      const payload = JSON.stringify({ hook_event_name: "PostToolUse", session_id: facts.bigSession, tool_name: "Write", tool_input: { file_path: join(dir, `${marker}.ts`), content: "x" } });
      const started = performance.now();
      const emit = Bun.spawnSync([binary, "hooks:emit", dir], { stdin: new TextEncoder().encode(payload), env: { ...process.env, HOME: home } });
      if (emit.exitCode !== 0) throw new Error("hooks:emit failed");
      await Promise.all(waiting);
      latencies.push(performance.now() - started);
    }
    rows.push([`hook written → shown in all 10 browsers, median of ${runs}`, `${median(latencies).toFixed(0)} ms (max ${Math.max(...latencies).toFixed(0)})`]);
    rows.push(["server RSS at the end (peak of the whole run)", `${rssMiB(proc.pid).toFixed(1)} MiB (${rssMiB(proc.pid, "VmHWM").toFixed(1)} MiB)`]);
  } finally {
    await browser.close();
    proc.kill("SIGINT");
    await proc.exited;
    rmSync(home, { recursive: true, force: true });
  }
  const width = Math.max(...rows.map(([label]) => label.length));
  console.log(`\nDashboard on a ${facts.events}-event store (${facts.harnessSessions} harness sessions):`);
  for (const [label, value] of rows) console.log(`  ${label.padEnd(width)}  ${value}`);
}

if (import.meta.main) await main();
