/**
 * Wine smoke test of the Windows build (run by .ci/steps/wine-smoke.sh after it built the C helpers).
 *   bun scripts/wine/smoke.ts <work-dir>
 * <work-dir>/bin holds aioson.exe + the stand-in bcryptprimitives.dll, <work-dir>/probe holds probe.exe named
 * aioson.exe, <work-dir>/launch.exe launches handlers like a Windows harness (cmd.exe /d /s /c "<handler>").
 * Checks, for every generated `commandWindows`: exit code 0 with aioson.exe on PATH and with no aioson at all; the
 * payload (with " & | ^ %) reaches the binary byte-exact and the arguments arrive as written; the event lands in the
 * store (once hooks:emit is implemented in the build). Also proves the OpenCode plugin's cmd.exe argument escaping.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { syntheticPayload } from "../../src/install/doctor.ts";
import { opencodePluginSource } from "../../src/install/opencode-plugin.ts";

const work: string = process.argv[2] ?? "";
if (!work) throw new Error("usage: bun scripts/wine/smoke.ts <work-dir>");
const bin = join(work, "bin");
const probe = join(work, "probe");
const empty = join(work, "empty-path");
mkdirSync(empty, { recursive: true });

let failures = 0;
function check(ok: boolean, what: string, detail = ""): void {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}${ok || !detail ? "" : ` — ${detail}`}`);
  if (!ok) failures++;
}

const winPath = (path: string) => `Z:${path.replaceAll("/", "\\")}`;

function wine(args: string[], env: Record<string, string> = {}, cwd = work): { code: number; stdout: string; stderr: string } {
  const result = Bun.spawnSync(["wine", ...args], {
    cwd,
    env: { ...process.env, WINEPREFIX: join(work, "prefix"), WINEDEBUG: "-all", ...env } as Record<string, string>,
    stdout: "pipe",
    stderr: "pipe",
    timeout: 120_000,
  });
  return { code: result.exitCode ?? -1, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
}

/** Launches `handler` like a harness: cmd.exe /d /s /c "<handler>" with `payload` on stdin, in `cwd`. */
function launch(handler: string, payload: string, cwd: string, pathDir: string, env: Record<string, string> = {}): number {
  const dir = mkdtempSync(join(work, "launch-"));
  writeFileSync(join(dir, "handler.txt"), handler);
  writeFileSync(join(dir, "payload.json"), payload);
  const run = wine([join(work, "launch.exe"), winPath(join(dir, "handler.txt")), winPath(join(dir, "payload.json")), winPath(cwd)], { WINEPATH: winPath(pathDir), ...env });
  const match = /exit=(\d+)/.exec(run.stdout);
  return match ? Number(match[1]) : -1;
}

function tempProject(): string {
  const dir = mkdtempSync(join(work, "proj-"));
  mkdirSync(join(dir, ".aioson"));
  writeFileSync(join(dir, ".aioson", "config.md"), "# wine smoke\n");
  return dir;
}

function countEvents(project: string): number {
  const path = join(project, ".aioson", "runtime", "aios.sqlite");
  if (!existsSync(path)) return 0;
  const db = new Database(path, { readonly: true });
  try {
    const a = db.query("SELECT count(*) AS n FROM execution_events").get() as { n: number };
    const b = db.query("SELECT count(*) AS n FROM agent_events").get() as { n: number };
    return a.n + b.n;
  } finally {
    db.close();
  }
}

// 1. The Windows binary starts under Wine.
const version = wine([join(bin, "aioson.exe"), "--version"]);
check(/^aioson \d+\.\d+\.\d+/.test(version.stdout.trim()), "aioson.exe --version under Wine", version.stdout + version.stderr);

// 2. The Windows binary installs the Codex hooks itself (Windows paths, CODEX_HOME override).
const codexHome = join(work, "codex");
const install = wine([join(bin, "aioson.exe"), "hooks:install", "--tool=codex", "--json"], { CODEX_HOME: winPath(codexHome) });
check(install.code === 0 && existsSync(join(codexHome, "hooks.json")), "hooks:install --tool=codex writes %CODEX_HOME%\\hooks.json", install.stdout + install.stderr);
type Handler = { command: string; commandWindows: string };
const config = JSON.parse(readFileSync(join(codexHome, "hooks.json"), "utf8")) as { hooks: Record<string, { matcher?: string; hooks: Handler[] }[]> };

const emitHelp = wine([join(bin, "aioson.exe"), "hooks:emit", "--help"]);
const emitImplemented = emitHelp.code === 0 && !emitHelp.stdout.includes("not implemented");
if (!emitImplemented) console.log("note: hooks:emit is not implemented in this build; the event-landing check is skipped");

const SPECIAL = `quote " amp & pipe | caret ^ percent % var %PATH% bang !x! lt < gt >`;

// One project for the real runs, like one session: SessionEnd (last in the file) closes what the others opened.
const session = tempProject();
for (const [event, groups] of Object.entries(config.hooks)) {
  for (const group of groups) {
    for (const handler of group.hooks) {
      const label = `${event}${group.matcher ? ` (${group.matcher})` : ""}`;
      const payload = JSON.stringify({ ...syntheticPayload(event, group.matcher, "C:\\proj", "wine-smoke"), note: SPECIAL });

      const before = countEvents(session);
      const code = launch(handler.commandWindows, payload, session, bin);
      check(code === 0, `${label}: exit 0 with aioson.exe on PATH`, `exit ${code}`);
      if (emitImplemented && handler.commandWindows.startsWith("aioson hooks:emit")) {
        check(countEvents(session) > before, `${label}: the event landed in the store`);
      }

      const without = tempProject();
      const absent = launch(handler.commandWindows, payload, without, empty);
      check(absent === 0, `${label}: exit 0 with no aioson on PATH`, `exit ${absent}`);

      const out = join(mkdtempSync(join(work, "probe-")), "stdin.bin");
      const probed = launch(handler.commandWindows, payload, tempProject(), probe, { AIOSON_PROBE_OUT: winPath(out) });
      const received = existsSync(out) ? readFileSync(out, "utf8") : "<nothing>";
      check(probed === 0 && received === payload, `${label}: payload arrives byte-exact`, `received ${received.slice(0, 200)}`);
      const expectedArgs = handler.commandWindows.replace(/ 2>nul & exit \/b 0$/, "").split(" ").slice(1);
      const args = existsSync(`${out}.argv`) ? readFileSync(`${out}.argv`, "utf8").split(/\r?\n/).filter(Boolean) : [];
      check(JSON.stringify(args) === JSON.stringify(expectedArgs), `${label}: arguments arrive as written`, JSON.stringify(args));
    }
  }
}

// 3. hooks:doctor on Windows: runs every handler through cmd.exe in a temp project and checks landing.
const doctor = wine([join(bin, "aioson.exe"), "hooks:doctor", "--tool=codex", "--json"], { CODEX_HOME: winPath(codexHome), WINEPATH: winPath(bin) });
type DoctorJson = { harnesses: { handlers: { exitCode: number; landed: boolean | null }[] }[]; issues: { code: string }[] };
let report: DoctorJson | null = null;
try {
  report = JSON.parse(doctor.stdout) as DoctorJson;
} catch {
  report = null;
}
const handlers = report?.harnesses[0]?.handlers ?? [];
check(handlers.length === 6 && handlers.every((h) => h.exitCode === 0), "hooks:doctor runs the 6 Codex handlers through cmd.exe, exit 0", doctor.stdout.slice(0, 400) + doctor.stderr.slice(0, 400));
const landedAll = handlers.filter((h) => h.landed !== null).every((h) => h.landed === true);
if (emitImplemented) check(landedAll && !report?.issues.some((i) => i.code === "event_not_landed"), "hooks:doctor sees every event land", doctor.stdout.slice(0, 800));
else check(report?.issues.some((i) => i.code === "event_not_landed") === true, "hooks:doctor reports events that do not land (hooks:emit missing from this build)");

// 4. The OpenCode plugin's cmd.exe escaping keeps every argument whole (a folder such as R&D stays one argument).
const source = opencodePluginSource("dev");
const escapeText = /function cmdEscape\(arg\) \{[\s\S]*?\n\}/.exec(source)?.[0];
check(escapeText !== undefined, "the plugin has a cmdEscape function");
if (escapeText) {
  const cmdEscape = new Function(`${escapeText}; return cmdEscape;`)() as (arg: string) => string;
  const tricky = ["hooks:emit", "C:\\R&D\\100% done (x) ^caret", `say "hi" | more & %PATH% !x! trailing\\`, "--agent=dev"];
  const line = ["aioson", ...tricky].map(cmdEscape).join(" ");
  const out = join(mkdtempSync(join(work, "plugin-")), "stdin.bin");
  const code = launch(line, "{}", tempProject(), probe, { AIOSON_PROBE_OUT: winPath(out) });
  const args = existsSync(`${out}.argv`) ? readFileSync(`${out}.argv`, "utf8").split(/\r?\n/).filter(Boolean) : [];
  check(code === 0 && JSON.stringify(args) === JSON.stringify(tricky), "OpenCode plugin arguments survive cmd.exe intact", JSON.stringify(args));
}

// 5. The dashboard serves its embedded page from the Windows build (the HTML import's files are in the .exe).
{
  const project = tempProject();
  const server = Bun.spawn(["wine", join(bin, "aioson.exe"), "dashboard", winPath(project), "--no-open", "--port=0", "--json"], {
    cwd: work,
    env: { ...process.env, WINEPREFIX: join(work, "prefix"), WINEDEBUG: "-all" } as Record<string, string>,
    stdout: "pipe",
    stderr: "pipe",
  });
  let text = "";
  const reader = server.stdout.getReader();
  const deadline = Date.now() + 60_000;
  while (!text.includes("}") && Date.now() < deadline) {
    const chunk = await Promise.race([reader.read(), Bun.sleep(1_000).then(() => null)]);
    if (chunk?.done) break;
    if (chunk?.value) text += new TextDecoder().decode(chunk.value);
  }
  let served = "";
  try {
    const url = new URL((JSON.parse(text) as { url: string }).url);
    const cookie = `aioson_dashboard_${url.port}=${url.searchParams.get("token")}`;
    const page = await fetch(`${url.origin}/`, { headers: { Cookie: cookie } });
    const html = await page.text();
    const script = /src="(\/[\w.-]+\.js)"/.exec(html)?.[1] ?? "";
    const js = await fetch(`${url.origin}${script}`, { headers: { Cookie: cookie } });
    served = `${page.status} ${js.status} ${(await js.text()).length > 1000}`;
  } catch (error) {
    served = String(error);
  }
  server.kill();
  check(served === "200 200 true", "aioson.exe dashboard serves its embedded page and script", `${served} ${text.slice(0, 300)}`);
}

console.log(failures === 0 ? "wine smoke: all checks passed" : `wine smoke: ${failures} check(s) failed`);
process.exit(failures === 0 ? 0 : 1);
