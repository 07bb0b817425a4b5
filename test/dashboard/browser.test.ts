/**
 * The dashboard in a real browser (Debian's headless Chromium driven by playwright-core): events emitted through
 * the binary appear live; a person clicks project → session → the compaction checkpoint; recorded texts from an XSS
 * corpus (event messages, file names, plan items, agent names, guard reasons, a project path, hooks.log) render as
 * those characters, with no script run, no dialog and no console error; the token is required. A screenshot of each
 * main view of a realistic project (two harnesses, tests, a compaction, rules injected by context:guard) is saved
 * under dist/dashboard-screenshots/ (a test artifact, not committed; docs/dashboard.png is one of them).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchChromium } from "../../scripts/chromium.ts";
import { REPO_ROOT, cleanupTemp, runAioson, tempDir, tempProject } from "../helpers.ts";
import { startDashboard, type RunningDashboard } from "./helpers.ts";

const SHOTS = join(REPO_ROOT, "dist", "dashboard-screenshots");

/** Recorded texts that would run script if the page ever treated them as HTML or as a URL. */
const XSS = [
  "<img src=x onerror=alert(1)>",
  '"><script>alert(1)</script>',
  "javascript:alert(1)",
  "<svg onload=alert(1)>",
  "</textarea><iframe src=javascript:alert(1)></iframe>",
  "{{constructor.constructor('alert(1)')()}}",
] as const;

/** The little of the DOM the checks read (this suite is typed without the DOM library). */
type PageElement = { tagName: string; attributes: ArrayLike<{ name: string }>; getAttribute: (name: string) => string | null };
type PageDocument = { querySelectorAll: (selector: string) => ArrayLike<PageElement>; scripts: ArrayLike<PageElement> };

let home: string;
/** The realistic project. */
let shop: string;
/** The project whose path and records are the XSS corpus. */
let project: string;
let dashboard: RunningDashboard;
let browser: Browser;
let context: BrowserContext;
const problems: string[] = [];

function emit(payload: object, args: readonly string[] = [], root = project): void {
  const result = runAioson(["hooks:emit", root, ...args], { home, stdin: JSON.stringify(payload) });
  expect(result.code).toBe(0);
}

/**
 * A day of work in a small shop API: @dev in Claude Code (a plan, edits, a failing then passing test run, the
 * project's naming rule injected by context:guard and honoured once, a compaction) and @qa in Codex.
 */
function recordShop(): void {
  shop = join(tempDir("aioson-demo-"), "shop-api");
  cpSync(join(REPO_ROOT, "test", "fixtures", "guard-project"), shop, { recursive: true });
  writeFileSync(join(shop, ".aioson", "config.md"), "# shop-api\n");
  mkdirSync(join(shop, ".aioson", "context"), { recursive: true });
  writeFileSync(join(shop, ".aioson", "context", "dev-state.md"), "---\nactive_feature: checkout\nnext_step: Apply the coupon before the tax\n---\n");
  expect(runAioson(["runtime:init", shop], { home }).code).toBe(0);
  const dev = { session_id: "claude-7f3a91", cwd: shop };
  const file = (name: string, tool = "Edit") => emit({ ...dev, hook_event_name: "PostToolUse", tool_name: tool, tool_input: { file_path: join(shop, name), content: "x" }, tool_response: {} }, [], shop);
  const bash = (command: string, stdout: string, exit: number) =>
    emit({ ...dev, hook_event_name: exit === 0 ? "PostToolUse" : "PostToolUseFailure", tool_name: "Bash", tool_input: { command }, tool_response: { stdout, stderr: "", interrupted: false }, ...(exit === 0 ? {} : { error: `Exit code ${exit}\n${stdout}` }) }, [], shop);
  const plan = (done: number) =>
    emit({ ...dev, hook_event_name: "PostToolUse", tool_name: "TodoWrite", tool_input: { todos: ["Read the cart service", "Add coupon model", "Apply coupon in totals", "Cover totals with tests", "Update the API docs"].map((content, i) => ({ content, status: i < done ? "completed" : i === done ? "in_progress" : "pending" })) } }, [], shop);
  emit({ ...dev, hook_event_name: "UserPromptSubmit", prompt: "/aioson:agent:dev implement coupons in checkout" }, [], shop);
  plan(1);
  file("src/services/cart.ts");
  file("src/models/coupon.ts", "Write");
  // context:guard offers the naming rule for a Portuguese identifier; the agent then renames it.
  expect(runAioson(["context:guard", shop, "--json"], { home, stdin: JSON.stringify({ ...dev, hook_event_name: "PreToolUse", tool_name: "Write", tool_input: { file_path: join(shop, "src/services/totals.js"), content: "export function calcularTotal() {}\n" } }) }).code).toBe(0);
  writeFileSync(join(shop, "src", "services", "totals.js"), "export function computeTotal() {}\n");
  file("src/services/totals.js", "Write");
  plan(2);
  bash("npm test -- totals", "Tests: 2 failed, 14 passed", 1);
  file("src/services/totals.js");
  bash("npm run lint", "0 problems", 0);
  emit({ ...dev, hook_event_name: "PreCompact", trigger: "auto" }, [], shop);
  file("test/totals.test.ts", "Write");
  bash("npm test -- totals", "Tests: 16 passed", 0);
  plan(3);
  // The guard kit asks before a push (a guard_decision row of the session).
  expect(runAioson(["guard:pre-commit-guard", shop], { home, cwd: shop, stdin: JSON.stringify({ ...dev, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "git push origin main" } }) }).code).toBe(0);
  emit({ ...dev, hook_event_name: "Stop", last_assistant_message: "Coupons are applied before tax; totals are covered by tests. Next: the API docs." }, [], shop);
  const qa = { session_id: "codex-19b2", cwd: shop };
  emit({ ...qa, hook_event_name: "PostToolUse", tool_name: "apply_patch", tool_input: { command: "*** Begin Patch\n*** Update File: test/checkout.test.ts\n*** End Patch" }, tool_response: "Success" }, ["--source=codex", "--agent=qa"], shop);
  emit({ ...qa, hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "npm test" }, tool_response: "Tests: 31 passed\nProcess exited with code 0" }, ["--source=codex", "--agent=qa"], shop);
}

async function newPage(): Promise<Page> {
  const page = await context.newPage();
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("dialog", (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return page;
}

/** Nothing in the page came from recorded text as markup: no element it did not build, no handler attribute. */
async function assertNoInjectedMarkup(page: Page): Promise<void> {
  const found = await page.evaluate(() => {
    const doc = (globalThis as unknown as { document: PageDocument }).document;
    const all = Array.from(doc.querySelectorAll("*"));
    return {
      handlers: all.filter((el) => Array.from(el.attributes).some((attr) => attr.name.toLowerCase().startsWith("on"))).map((el) => el.tagName),
      foreign: all.filter((el) => ["IMG", "IFRAME", "OBJECT", "EMBED", "TEXTAREA"].includes(el.tagName)).map((el) => el.tagName),
      scripts: Array.from(doc.scripts).map((script) => script.getAttribute("src") ?? "inline"),
      links: Array.from(doc.querySelectorAll("a")).map((a) => a.getAttribute("href") ?? "").filter((href) => !href.startsWith("#/")),
    };
  });
  expect(found.handlers).toEqual([]);
  expect(found.foreign).toEqual([]);
  expect(found.scripts.length).toBe(1);
  expect(found.scripts[0]).toMatch(/^\/[\w.-]+\.js$/);
  expect(found.links).toEqual([]);
}

beforeAll(async () => {
  home = tempDir("aioson-home-");
  // A project whose very path is hostile text.
  project = join(tempDir("aioson-xss-"), `proj ${XSS[0]} ${XSS[3]}`);
  mkdirSync(join(project, ".aioson"), { recursive: true });
  writeFileSync(join(project, ".aioson", "config.md"), "# browser test project\n");
  mkdirSync(join(project, ".aioson", "context"), { recursive: true });
  writeFileSync(join(project, ".aioson", "context", "dev-state.md"), "---\nactive_feature: cart\nnext_step: Wire the totals\n---\n");
  const session = "claude-xss-1";
  const base = { session_id: session, cwd: project };
  emit({ ...base, hook_event_name: "UserPromptSubmit", prompt: "/aioson:agent:dev start" });
  for (const [i, text] of XSS.entries()) emit({ ...base, hook_event_name: "PostToolUse", tool_name: "Write", tool_input: { file_path: join(project, "src", `${text.replaceAll("/", "_")}-${i}.ts`), content: "x" } });
  emit({ ...base, hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: `npm test -- '${XSS[1]}'` }, tool_response: { stdout: "Tests: 1 failed, 3 passed", stderr: "", exit_code: 1 } });
  emit({ ...base, hook_event_name: "PostToolUse", tool_name: "TodoWrite", tool_input: { todos: XSS.map((text, i) => ({ content: `Plan ${text}`, status: i < 2 ? "completed" : i === 2 ? "in_progress" : "pending" })) } });
  emit({ ...base, hook_event_name: "PostToolUse", tool_name: "Task", tool_input: { description: `Explore ${XSS[4]}` }, tool_response: {} });
  emit({ ...base, hook_event_name: "Stop", last_assistant_message: `Done: ${XSS[0]} and ${XSS[2]}` });
  emit({ ...base, hook_event_name: "PreCompact", trigger: "auto" });
  emit({ ...base, hook_event_name: "PostToolUse", tool_name: "Edit", tool_input: { file_path: join(project, "src", "after-compaction.ts") }, tool_response: {} });
  // A guard decision and a hostile agent name, through runtime:emit (the dev hooks session is open).
  expect(runAioson(["runtime:emit", project, "--agent=dev", "--type=guard_decision", `--summary=pre-commit-guard: deny ${XSS[1]}`, `--meta=${JSON.stringify({ guard: "pre-commit-guard", decision: "deny", reason: XSS[5], harness: "claude" })}`], { home }).code).toBe(0);
  expect(runAioson(["runtime:emit", project, `--agent=${XSS[0]}`, `--summary=${XSS[3]}`], { home }).code).toBe(0);
  writeFileSync(join(project, ".aioson", "runtime", "hooks.log"), `2026-01-01T00:00:00.000Z hooks:emit Error: ${XSS[1]}\n`);
  recordShop();
  dashboard = await startDashboard(["--no-open", "--port=0"], { home });
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, colorScheme: "dark" });
  mkdirSync(SHOTS, { recursive: true });
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await dashboard?.stop();
  cleanupTemp();
});

describe("the dashboard in a real browser", () => {
  test("without the run's token the browser gets nothing but the hint", async () => {
    const page = await context.newPage();
    const response = await page.goto(dashboard.origin);
    expect(response?.status()).toBe(401);
    expect(await page.textContent("body")).toContain("aioson dashboard");
    await page.close();
  });

  test("projects → project → session → compaction checkpoint, by clicking", async () => {
    const page = await newPage();
    await page.goto(dashboard.url);
    const card = page.locator("a.project-card", { hasText: "shop-api" });
    await card.waitFor();
    // The token left the address bar (and the history) at the first request.
    expect(page.url()).toBe(`${dashboard.origin}/`);
    await page.screenshot({ path: join(SHOTS, "projects.png") });
    await card.click();
    const row = page.locator(".sessions tr.clickable", { hasText: "claude-7f3a91" });
    await row.waitFor();
    await page.locator(".chart.bars").first().waitFor();
    await page.screenshot({ path: join(SHOTS, "project.png"), fullPage: true });
    await row.click();
    const checkpoint = page.locator("pre.checkpoint");
    await checkpoint.waitFor();
    const recap = runAioson(["hooks:recap", shop, "--when=always", "--session=claude-7f3a91"], { home });
    expect(await checkpoint.textContent()).toBe(recap.stdout.trimEnd());
    expect(await page.locator(".compactions li").count()).toBe(1);
    // The rule context:guard offered, and the rename that honoured it; the guard kit's ask.
    expect(await page.locator(".rules li").first().textContent()).toContain("fixed 1");
    expect(await page.locator(".decisions li", { hasText: "pre-commit-guard" }).first().textContent()).toContain("ask");
    await page.screenshot({ path: join(SHOTS, "session.png") });
    await page.screenshot({ path: join(SHOTS, "session-full.png"), fullPage: true });
    await page.locator(".crumbs a").nth(1).click();
    await page.locator(".tabs a", { hasText: "Hook health" }).click();
    await page.locator(".panel h2", { hasText: "Last fired" }).waitFor();
    await page.screenshot({ path: join(SHOTS, "health.png"), fullPage: true });
    await page.close();
    expect(problems).toEqual([]);
  });

  test("a new event appears in the open session's timeline as the hook records it", async () => {
    const page = await newPage();
    await page.goto(dashboard.url);
    await page.locator("a.project-card", { hasText: "shop-api" }).click();
    await page.locator(".sessions tr.clickable", { hasText: "claude-7f3a91" }).click();
    await page.locator(".timeline li.event").first().waitFor();
    await page.locator("#live.on").waitFor();
    const before = await page.locator(".timeline li.event").count();
    emit({ session_id: "claude-7f3a91", cwd: shop, hook_event_name: "PostToolUse", tool_name: "Write", tool_input: { file_path: join(shop, "docs", "api.md"), content: "x" } }, [], shop);
    const arrived = page.locator(".timeline li.event.fresh", { hasText: "Write: docs/api.md" });
    await arrived.waitFor({ timeout: 20_000 });
    expect(await page.locator(".timeline li.event").count()).toBe(before + 1);
    // It is the newest, at the top, and the session's panels follow it.
    expect(await page.locator(".timeline li.event").first().textContent()).toContain("docs/api.md");
    await page.locator(".files li", { hasText: "docs/api.md" }).waitFor({ timeout: 20_000 });
    await page.close();
    expect(problems).toEqual([]);
  });

  test("a project without a store yet: `aioson dashboard <dir>` says so, and fills in when its first hook records", async () => {
    const fresh = tempProject();
    const single = await startDashboard([fresh, "--no-open", "--port=0"], { home });
    try {
      const page = await newPage();
      await page.goto(single.url);
      await page.locator(".empty", { hasText: "No event recorded in this project yet" }).waitFor();
      expect(await page.locator("h1").textContent()).toBe(fresh.split("/").at(-1) ?? "");
      await page.locator("#live.on").waitFor();
      emit({ session_id: "first-1", cwd: fresh, hook_event_name: "PostToolUse", tool_name: "Write", tool_input: { file_path: join(fresh, "first.ts"), content: "x" } }, [], fresh);
      await page.locator(".sessions tr.clickable", { hasText: "first-1" }).waitFor({ timeout: 20_000 });
      await page.close();
    } finally {
      await single.stop();
    }
    expect(problems).toEqual([]);
  });

  test("every recorded text of the XSS corpus renders as its characters, on every view", async () => {
    const page = await newPage();
    await page.goto(dashboard.url);
    const card = page.locator("a.project-card", { hasText: XSS[0] });
    await card.waitFor();
    const projectsText = await page.innerText("main");
    expect(projectsText).toContain(project);
    await assertNoInjectedMarkup(page);
    await card.click();
    await page.locator(".sessions tr.clickable").first().waitFor();
    await page.locator(".chart.bars").first().waitFor();
    // The hostile agent name is a series of the activity chart.
    expect(await page.innerText("main")).toContain(`@${XSS[0]}`);
    await assertNoInjectedMarkup(page);
    await page.locator(".sessions tr.clickable", { hasText: "claude-xss-1" }).click();
    await page.locator("pre.checkpoint").waitFor();
    await page.locator(".timeline li.event").first().waitFor();
    const sessionText = await page.innerText("main");
    for (const text of XSS) {
      expect(sessionText).toContain(`Plan ${text}`);
      expect(sessionText).toContain(`src/${text.replaceAll("/", "_")}`);
    }
    expect(sessionText).toContain(`Explore ${XSS[4]}`);
    expect(sessionText).toContain(`$ npm test -- '${XSS[1]}'`);
    await assertNoInjectedMarkup(page);
    // The hooks session holds the guard decision recorded without a harness session id.
    await page.locator(".crumbs a").nth(1).click();
    await page.locator(".sessions tr.clickable", { hasText: "@dev" }).first().click();
    await page.locator(".timeline li.event", { hasText: "pre-commit-guard" }).first().waitFor();
    const hooksText = await page.innerText("main");
    expect(hooksText).toContain(`pre-commit-guard: deny ${XSS[1]}`);
    expect(hooksText).toContain(XSS[5]);
    await assertNoInjectedMarkup(page);
    await page.locator(".crumbs a").nth(1).click();
    await page.locator(".tabs a", { hasText: "Hook health" }).click();
    await page.locator(".log li").first().waitFor();
    expect(await page.innerText("main")).toContain(`Error: ${XSS[1]}`);
    await assertNoInjectedMarkup(page);
    await page.close();
    expect(problems).toEqual([]);
  });
});
