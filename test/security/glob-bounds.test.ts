/**
 * Issue 25 (a cloned repository is hostile, round 2), rule globs: a rule's `paths` pattern and a written `file_path`
 * never hold a hook, the usage report or the dashboard. A glob used to become a backtracking RegExp (ours for `*`/`**`,
 * picomatch's for the rest): `src/` + 52 `*` + `.zzz` took exponential time on an ordinary write, `?*a*a*a…`
 * polynomial time, and a written `file_path` was itself compiled as a glob against every rule's path. Each case runs
 * the real binary under a hard bound (killed past it); before the fix every one of them was still running at 10 s.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ProjectsResponse, SessionDetail } from "../../src/dashboard/api.ts";
import { cleanupTemp, runAioson } from "../helpers.ts";
import { startDashboard, writePayload, type RunningDashboard } from "../dashboard/helpers.ts";
import { hostileProject, runBounded, NAMING_RULE, type Hostile } from "./paths-helpers.ts";

const dashboards: RunningDashboard[] = [];
afterAll(() => {
  // SIGKILL: a dashboard spinning in a glob would never get to its SIGINT handler.
  for (const dashboard of dashboards) dashboard.proc.kill(9);
  cleanupTemp();
});

/** Far above a guard call (~15 ms), far below the time any of these attacks took. */
const BOUND_MS = 5_000;
const STARS = "*".repeat(52);
/** A long name: the backtracking grew with the characters the stars share. */
const LONG_FILE = "src/payment-service-handler-for-the-thing.ts";
const RULE = ".aioson/rules/pay.md";

function writeRule(h: Hostile, frontmatter: string, name = "pay.md"): void {
  mkdirSync(join(h.project, ".aioson", "rules"), { recursive: true });
  writeFileSync(join(h.project, ".aioson", "rules", name), `---\n${frontmatter}\n---\n# Payments\n\n## Rules\n- Never log card numbers.\n`);
}

function pendingWrite(file: string, content = "payment code"): string {
  return JSON.stringify({ hook_event_name: "PreToolUse", session_id: "S-1", tool_name: "Write", tool_input: { file_path: file, content } });
}

/** context:guard under the bound: it answered, exit 0, with valid JSON. */
async function guardAnswer(h: Hostile, file: string, content?: string): Promise<{ hookSpecificOutput?: { additionalContext?: string } }> {
  const run = await runBounded(["context:guard", h.project, "--json"], { h, stdin: pendingWrite(file, content), boundMs: BOUND_MS });
  expect(run.timedOut).toBe(false);
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as { hookSpecificOutput?: { additionalContext?: string } };
}

describe("context:guard: a rule's paths pattern", () => {
  test.each([
    ["52 `*` then `.zzz` (exponential as a RegExp)", `src/${STARS}.zzz`, LONG_FILE, "src/payment.zzz"],
    ["`?` then 14 `*a` (picomatch's polynomial backtracking)", `src/?${"*a".repeat(14)}*.zzz`, `src/${"a".repeat(40)}.ts`, `src/x${"a".repeat(16)}.zzz`],
  ])("%s: an ordinary write is answered within the bound; a write it matches still gets the rule", async (_label, pattern, ordinary, matching) => {
    const h = hostileProject();
    writeRule(h, `paths: [${pattern}]\ntriggers: [payment]\nguard: true`);
    expect(await guardAnswer(h, ordinary)).toEqual({});
    expect((await guardAnswer(h, matching)).hookSpecificOutput?.additionalContext).toContain(`Rule ${RULE}:\n- Never log card numbers.`);
  }, 30_000);

  test("a pattern longer than 256 characters matches nothing and context:brief names the rule", () => {
    const h = hostileProject();
    writeRule(h, `paths: [src/${"a".repeat(300)}/*.ts]\ntriggers: [payment]`);
    const brief = runAioson(["context:brief", h.project, "--task=payment", "--json"], { home: h.home });
    expect((brief.json as { invalid_rules: unknown[] }).invalid_rules).toEqual([{ path: RULE, problem: "paths: a path pattern must be at most 256 characters" }]);
  });
});

/** The content names no trigger: only the path could route the rule (`paths:direct`, the write of the rule itself). */
describe("context:guard: a written file_path is a path, never a pattern", () => {
  test("52 `*` then `.zzz` as the file: answered within the bound, no rule", async () => {
    const h = hostileProject();
    writeRule(h, "triggers: [payment]\nguard: true");
    expect(await guardAnswer(h, `${STARS}.zzz`, "x")).toEqual({});
  }, 30_000);

  test("`.aioson/rules/**` as the file no longer reaches every rule; a write to the rule file itself still does", async () => {
    const h = hostileProject();
    writeRule(h, "triggers: [payment]\nguard: true");
    expect(await guardAnswer(h, ".aioson/rules/**", "x")).toEqual({});
    expect((await guardAnswer(h, RULE, "x")).hookSpecificOutput?.additionalContext).toContain(`Rule ${RULE}:`);
  }, 30_000);
});

/**
 * One recorded injection with a measured violation (the naming rule, on a file that still holds it), then a hostile
 * governance document pulled in later: the usage re-check runs every governance document's paths against the file.
 */
function injectedThenHostile(): { h: Hostile; file: string } {
  const h = hostileProject();
  const file = "src/payment-service-handler-for-the-thing.js";
  const content = "export function salvarPedido() {}\n";
  mkdirSync(join(h.project, ".aioson", "rules"), { recursive: true });
  writeFileSync(join(h.project, ".aioson", "rules", "naming.md"), NAMING_RULE);
  // The first hook of the session creates the store (and registers the project for the dashboard).
  const emitted = runAioson(["hooks:emit", h.project], { home: h.home, stdin: writePayload(h.project, "S-1", "README.md") });
  expect(emitted.code).toBe(0);
  const guard = runAioson(["context:guard", h.project, "--json"], { home: h.home, stdin: pendingWrite(join(h.project, file), content) });
  expect(guard.stdout).toContain("salvarPedido");
  // The write landed as it was: the violation is still in the file.
  mkdirSync(join(h.project, "src"), { recursive: true });
  writeFileSync(join(h.project, file), content);
  writeRule(h, `enforcement: [file-size]\nmax_file_lines: 1\npaths: [src/${STARS}.zzz]`, "a-size.md");
  return { h, file };
}

describe("the re-check of recorded injections against a hostile document", () => {
  test("context:usage answers within the bound", async () => {
    const { h } = injectedThenHostile();
    const run = await runBounded(["context:usage", h.project], { h, boundMs: BOUND_MS });
    expect(run.timedOut).toBe(false);
    expect(run.stdout).toContain("Guard at write time: 1 injection — measured violations fixed 0, still present 1, file gone 0.");
  }, 30_000);

  test("the dashboard answers the hostile session, and another project's API meanwhile", async () => {
    const { h } = injectedThenHostile();
    const other = hostileProject();
    const emitted = runAioson(["hooks:emit", other.project], { home: h.home, stdin: writePayload(other.project, "O-1", "README.md") });
    expect(emitted.code).toBe(0);
    const dashboard = await startDashboard(["--no-open", "--port=0"], { home: h.home });
    dashboards.push(dashboard);
    const get = (path: string) => fetch(`${dashboard.origin}${path}`, { headers: { Cookie: dashboard.cookie }, signal: AbortSignal.timeout(BOUND_MS) });
    const { projects } = (await (await get("/api/projects")).json()) as ProjectsResponse;
    const id = (root: string) => projects.find((project) => project.root === root)?.id;
    const hostile = get(`/api/session?project=${id(h.project)}&session=S-1`);
    const meanwhile = await get(`/api/sessions?project=${id(other.project)}`);
    expect(meanwhile.status).toBe(200);
    const detail = (await (await hostile).json()) as SessionDetail;
    expect(detail.usage).toMatchObject({ injections: 1, still_present: 1 });
  }, 30_000);
});
