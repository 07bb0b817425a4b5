/**
 * Wine smoke test of the Windows build (run by .ci/steps/wine-smoke.sh after it built the helpers).
 *   bun scripts/wine/smoke.ts <work-dir>
 * <work-dir>/bin holds aioson.exe + the stand-in bcryptprimitives.dll, <work-dir>/probe holds probe.exe named
 * aioson.exe, <work-dir>/launch.exe launches handlers like a Windows harness (see scripts/wine/launch.c for its modes),
 * <work-dir>/planted.exe is what a hostile repository plants, <work-dir>/opencode-driver.exe loads the OpenCode plugin
 * in Bun for Windows.
 * Codex 0.169 runs a `commandWindows` through PowerShell (`-NoProfile -Command`), or through `cmd.exe /c` when no
 * PowerShell is on PATH (src/install/commands.ts codexWindowsLine). Wine has no PowerShell, so its half is
 * reasoned out from the source there; this test proves the cmd.exe half of both ways, for every generated
 * `commandWindows`: the line PowerShell hands to CreateProcess after `--%`, and the line Codex's cmd.exe fallback
 * builds with Rust's argument quoting. Each: exit code 0 with aioson.exe on PATH and with no aioson at all; the payload
 * (with " & | ^ %) reaches the binary byte-exact and the arguments arrive as written; the event lands in the store.
 * Then hooks:doctor, which runs Codex handlers the same two ways, and the OpenCode plugin's cmd.exe argument escaping.
 * Last, a hostile repository (aioson.exe/.com/.bat/.cmd and cmd.exe/.com/.bat/.cmd at its root): what each Windows line
 * and the OpenCode plugin start there. Wine's cmd.exe ignores NoDefaultCurrentDirectoryInExePath (Windows' honours it,
 * Microsoft's NeedCurrentDirectoryForExePath), so for the cmd.exe lines this proves that the variable is set in the
 * process that starts aioson, and that nothing the project planted runs where the lines name no bare program.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { unwrapWindowsLine } from "../../src/install/commands.ts";
import { copilotPayload, syntheticPayload } from "../../src/install/doctor.ts";
import { opencodePluginSource } from "../../src/install/opencode-plugin.ts";
import { openDbFile } from "../open-db.ts";

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

type LaunchMode = "cmd" | "direct" | "rust-cmd";

/** Launches `handler` like a harness (launch.c `mode`) with `payload` on stdin, in `cwd`. */
function launch(mode: LaunchMode, handler: string, payload: string, cwd: string, pathDir: string, env: Record<string, string> = {}): number {
  const dir = mkdtempSync(join(work, "launch-"));
  writeFileSync(join(dir, "handler.txt"), handler);
  writeFileSync(join(dir, "payload.json"), payload);
  const run = wine([join(work, "launch.exe"), mode, winPath(join(dir, "handler.txt")), winPath(join(dir, "payload.json")), winPath(cwd)], { WINEPATH: winPath(pathDir), ...env });
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
  const db = openDbFile(path, { readonly: true });
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

/** What hooks:install writes in front of the cmd.exe line under Wine (SystemRoot C:\windows). */
const CODEX_PREFIX = "C:\\windows\\System32\\cmd.exe --% /d /c type nul& set NoDefaultCurrentDirectoryInExePath=1& aioson ";

/**
 * The two ways Codex starts a `commandWindows` that reach cmd.exe: PowerShell hands CreateProcess the program it
 * names and whatever follows `--%`, verbatim; the fallback is `cmd.exe /c <line>` through Rust's quoting.
 */
function codexLaunches(line: string): { mode: LaunchMode; handler: string; how: string }[] {
  const handoff = line.replace(" --% ", " ");
  return [
    { mode: "direct", handler: handoff, how: "as PowerShell hands it to cmd.exe" },
    { mode: "rust-cmd", handler: line, how: "through Codex's cmd.exe /c fallback" },
  ];
}

// One project per way of launching for the real runs, like one session: SessionEnd (last in the file) closes what
// the others opened.
const sessions = new Map<LaunchMode, string>();
for (const [event, groups] of Object.entries(config.hooks)) {
  for (const group of groups) {
    for (const handler of group.hooks) {
      const payload = JSON.stringify({ ...syntheticPayload(event, group.matcher, "C:\\proj", "wine-smoke"), note: SPECIAL });
      const inner = unwrapWindowsLine(handler.commandWindows);
      check(handler.commandWindows.startsWith(CODEX_PREFIX) && !handler.commandWindows.includes('"'), `${event}: commandWindows is the PowerShell-proof form without a double quote`, handler.commandWindows);
      for (const { mode, handler: line, how } of codexLaunches(handler.commandWindows)) {
        const session = sessions.get(mode) ?? tempProject();
        sessions.set(mode, session);
        const label = `${event}${group.matcher ? ` (${group.matcher})` : ""} ${how}`;
        const before = countEvents(session);
        const code = launch(mode, line, payload, session, bin);
        check(code === 0, `${label}: exit 0 with aioson.exe on PATH`, `exit ${code}`);
        if (emitImplemented && inner.startsWith("aioson hooks:emit")) check(countEvents(session) > before, `${label}: the event landed in the store`);

        const without = tempProject();
        const absent = launch(mode, line, payload, without, empty);
        check(absent === 0, `${label}: exit 0 with no aioson on PATH`, `exit ${absent}`);

        const out = join(mkdtempSync(join(work, "probe-")), "stdin.bin");
        const probed = launch(mode, line, payload, tempProject(), probe, { AIOSON_PROBE_OUT: winPath(out) });
        const received = existsSync(out) ? readFileSync(out, "utf8") : "<nothing>";
        check(probed === 0 && received === payload, `${label}: payload arrives byte-exact`, `received ${received.slice(0, 200)}`);
        const expectedArgs = inner.replace(/ 2>nul & exit \/b 0$/, "").split(" ").slice(1);
        const args = existsSync(`${out}.argv`) ? readFileSync(`${out}.argv`, "utf8").split(/\r?\n/).filter(Boolean) : [];
        check(JSON.stringify(args) === JSON.stringify(expectedArgs), `${label}: arguments arrive as written`, JSON.stringify(args));
      }
    }
  }
}

// 3. hooks:doctor on Windows runs Codex handlers as Codex does. With a PowerShell on PATH (here a probe named
// pwsh.exe, which Codex prefers to powershell.exe) it is `pwsh -NoProfile -Command <commandWindows>`:
type DoctorJson = { harnesses: { handlers: { exitCode: number; landed: boolean | null }[] }[]; issues: { code: string }[] };
function doctorJson(run: { stdout: string }): DoctorJson | null {
  try {
    return JSON.parse(run.stdout) as DoctorJson;
  } catch {
    return null;
  }
}
const pwshDir = join(work, "pwsh");
mkdirSync(pwshDir, { recursive: true });
copyFileSync(join(probe, "aioson.exe"), join(pwshDir, "pwsh.exe"));
const pwshOut = join(mkdtempSync(join(work, "pwsh-")), "stdin.bin");
// The doctor runs in a project of its own: it leaves out PATH folders inside the project it checks, and the smoke's
// folders are all inside <work-dir>.
const viaPwsh = wine([join(bin, "aioson.exe"), "hooks:doctor", "--tool=codex", "--json"], { CODEX_HOME: winPath(codexHome), WINEPATH: `${winPath(pwshDir)};${winPath(bin)}`, AIOSON_PROBE_OUT: winPath(pwshOut) }, tempProject());
const pwshArgs = existsSync(`${pwshOut}.argv`) ? readFileSync(`${pwshOut}.argv`, "utf8").split(/\r?\n/).filter(Boolean) : [];
const lastHandler = Object.values(config.hooks).at(-1)?.[0]?.hooks[0];
check(doctorJson(viaPwsh)?.harnesses[0]?.handlers.length === 6 && JSON.stringify(pwshArgs) === JSON.stringify(["-NoProfile", "-Command", lastHandler?.commandWindows]), "hooks:doctor runs Codex handlers as pwsh -NoProfile -Command <commandWindows>", JSON.stringify(pwshArgs));
// Without one (Wine's own powershell.exe is a stub that runs nothing: PATH is cut to system32 and the binary's folder)
// it is Codex's `cmd.exe /c <commandWindows>`, and the events land.
const cutPath = `set PATH=C:\\windows\\system32;${winPath(bin)}& ${winPath(join(bin, "aioson.exe"))} hooks:doctor --tool=codex --json`;
const doctor = wine(["cmd.exe", "/d", "/c", cutPath], { CODEX_HOME: winPath(codexHome) }, tempProject());
const report = doctorJson(doctor);
const handlers = report?.harnesses[0]?.handlers ?? [];
check(handlers.length === 6 && handlers.every((h) => h.exitCode === 0), "hooks:doctor runs the 6 Codex handlers through cmd.exe /c when no PowerShell is on PATH, exit 0", doctor.stdout.slice(0, 400) + doctor.stderr.slice(0, 400));
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
  // The plugin names a .cmd shim by its absolute path: here the probe's.
  const line = [winPath(join(probe, "aioson.exe")), ...tricky].map(cmdEscape).join(" ");
  const out = join(mkdtempSync(join(work, "plugin-")), "stdin.bin");
  const code = launch("cmd", line, "{}", tempProject(), probe, { AIOSON_PROBE_OUT: winPath(out) });
  const args = existsSync(`${out}.argv`) ? readFileSync(`${out}.argv`, "utf8").split(/\r?\n/).filter(Boolean) : [];
  check(code === 0 && JSON.stringify(args) === JSON.stringify(tricky), "OpenCode plugin arguments survive cmd.exe intact", JSON.stringify(args));
}

// 6. A hostile repository. `planted.exe` (copied as aioson.exe, cmd.com…) and the batch files each leave
// "<name>.ran" in the project's marker folder when something starts them instead of the real program.
const PLANTED = ["aioson.exe", "aioson.com", "aioson.bat", "aioson.cmd", "cmd.exe", "cmd.com", "cmd.bat", "cmd.cmd"];
const PLANTED_CMD = PLANTED.filter((name) => name.startsWith("cmd."));

function hostileProject(names: readonly string[], prefix = "hostile-"): { project: string; markers: Record<string, string> } {
  const project = mkdtempSync(join(work, prefix));
  mkdirSync(join(project, ".aioson"));
  writeFileSync(join(project, ".aioson", "config.md"), "# a cloned repository\n");
  const markers = mkdtempSync(join(work, "markers-"));
  for (const name of names) {
    if (/\.(?:exe|com)$/.test(name)) copyFileSync(join(work, "planted.exe"), join(project, name));
    else writeFileSync(join(project, name), `@echo ran> "%AIOSON_MARKER_DIR%\\${name}.ran"\r\n`);
  }
  return { project, markers: { AIOSON_MARKER_DIR: winPath(markers) } };
}
const ranIn = (markers: Record<string, string>) => readdirSync((markers.AIOSON_MARKER_DIR ?? "").slice(2).replaceAll("\\", "/"));

/** `line` run `mode`-wise in a project holding `planted`, with the probe as aioson: its exit code, and whether the variable reached it. */
function probedSwitch(mode: LaunchMode, line: string, planted: readonly string[]): { code: number; env: string; ran: string[] } {
  const { project, markers } = hostileProject(planted);
  const out = join(mkdtempSync(join(work, "probe-")), "stdin.bin");
  const code = launch(mode, line, "{}", project, probe, { AIOSON_PROBE_OUT: winPath(out), ...markers });
  return { code, env: existsSync(`${out}.env`) ? readFileSync(`${out}.env`, "utf8") : "<probe not run>", ran: ranIn(markers) };
}

// 6a. Codex: the cmd.exe it names is never a project's cmd.*, and the variable reaches aioson both ways. With the real
// aioson the event lands.
{
  const handler = config.hooks.PostToolUse?.[0]?.hooks[0];
  const line = handler?.commandWindows ?? "";
  for (const { mode, handler: launched, how } of codexLaunches(line)) {
    const { project, markers } = hostileProject(PLANTED_CMD);
    const code = launch(mode, launched, JSON.stringify(syntheticPayload("PostToolUse", "Bash", "C:\\proj", "wine-hostile")), project, bin, markers);
    check(code === 0 && countEvents(project) > 0 && ranIn(markers).length === 0, `Codex line ${how}, cmd.exe/.com/.bat/.cmd in the project: none runs, the event lands`, `exit ${code}, events ${countEvents(project)}, ran ${ranIn(markers).join(",")}`);
    const probed = probedSwitch(mode, launched, PLANTED_CMD);
    check(probed.code === 0 && probed.env === "set" && probed.ran.length === 0, `Codex line ${how}: aioson starts with NoDefaultCurrentDirectoryInExePath set`, JSON.stringify(probed));
  }
}

// 6b. Copilot's `windows` lines as VS Code runs them (ComSpec /d /s /c), installed by the Windows binary.
{
  const workspace = tempProject();
  const installed = wine([join(bin, "aioson.exe"), "hooks:install", "--tool=copilot", "--json"], {}, workspace);
  const file = join(workspace, ".github", "hooks", "aioson.json");
  check(installed.code === 0 && existsSync(file), "hooks:install --tool=copilot writes .github/hooks/aioson.json", installed.stdout + installed.stderr);
  type Flat = { command: string; windows?: string; hooks?: Flat[] };
  const copilot = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as { hooks: Record<string, Flat[]> }) : { hooks: {} };
  const lines = Object.entries(copilot.hooks).flatMap(([event, entries]) => entries.flatMap((entry) => entry.hooks ?? [entry]).map((h) => ({ event, line: h.windows ?? "" })));
  check(lines.length === 7 && lines.every(({ line }) => line.startsWith("set NoDefaultCurrentDirectoryInExePath=1& aioson ")), "every Copilot `windows` line switches the current-folder lookup off before it names aioson", JSON.stringify(lines.map((l) => l.line)));
  const { project, markers } = hostileProject(PLANTED_CMD);
  const landed = lines.filter(({ event, line }) => {
    const before = countEvents(project);
    return launch("cmd", line, JSON.stringify(copilotPayload(event, "C:\\proj", "wine-hostile")), project, bin, markers) === 0 && (!line.includes("hooks:emit") || countEvents(project) > before);
  });
  check(landed.length === lines.length && ranIn(markers).length === 0, "Copilot lines through VS Code's cmd.exe in a hostile project: exit 0, events land, nothing planted runs", `${landed.length}/${lines.length}, ran ${ranIn(markers).join(",")}`);
  const probed = probedSwitch("cmd", lines[0]?.line ?? "", PLANTED_CMD);
  check(probed.code === 0 && probed.env === "set", "Copilot line: aioson starts with NoDefaultCurrentDirectoryInExePath set", JSON.stringify(probed));
  // Where Wine and Windows differ: Wine's cmd.exe still looks in the current folder with the variable set.
  const { project: planted, markers: plantedMarkers } = hostileProject(["aioson.bat"]);
  launch("cmd", lines[0]?.line ?? "", "{}", planted, bin, plantedMarkers);
  console.log(ranIn(plantedMarkers).length > 0
    ? "note: Wine's cmd.exe ignores NoDefaultCurrentDirectoryInExePath (a project's aioson.bat ran); Windows' cmd.exe searches %PATH% only once it is set (Microsoft, NeedCurrentDirectoryForExePath)"
    : "note: this Wine's cmd.exe honours NoDefaultCurrentDirectoryInExePath (a project's aioson.bat did not run)");
}

// 6c. The OpenCode plugin inside Bun for Windows: aioson by absolute path (an .exe directly, a .cmd shim through
// ComSpec), never the project's, whatever PATH says about the project.
{
  const pluginFile = join(mkdtempSync(join(work, "plugin-")), "aioson.js");
  writeFileSync(pluginFile, opencodePluginSource("dev"));
  const driver = (project: string, path: string, markers: Record<string, string>) =>
    wine([join(work, "driver", "opencode-driver.exe"), winPath(pluginFile), winPath(project), path], markers, project);
  {
    const { project, markers } = hostileProject(PLANTED);
    const run = driver(project, [winPath(project), ".", "", winPath(join(project, "bin")), winPath(bin), "C:\\windows\\system32"].join(";"), markers);
    check(run.stdout.includes("driver done") && countEvents(project) > 0 && ranIn(markers).length === 0, "OpenCode plugin on Windows: aioson.exe from PATH, nothing the project planted runs (its folder, `.` and an empty entry on PATH)", `${run.stdout}${run.stderr} events ${countEvents(project)} ran ${ranIn(markers).join(",")}`);
  }
  {
    // A user's .cmd shim, in a project folder whose name cmd.exe would otherwise split. (No `%` in it: Wine's cmd.exe
    // expands a `%` again inside the shim's `%*`, Windows' does not.)
    const shims = mkdtempSync(join(work, "shims-"));
    writeFileSync(join(shims, "aioson.cmd"), `@"${winPath(join(bin, "aioson.exe"))}" %*\r\n`);
    const { project, markers } = hostileProject(PLANTED, "R&D (x) ");
    const run = driver(project, [winPath(project), winPath(shims), "C:\\windows\\system32"].join(";"), markers);
    check(run.stdout.includes("driver done") && countEvents(project) > 0 && ranIn(markers).length === 0, "OpenCode plugin on Windows: a .cmd shim through ComSpec by its absolute path, the event lands, nothing planted runs", `${run.stdout}${run.stderr} events ${countEvents(project)} ran ${ranIn(markers).join(",")}`);
  }
}

// 6d. hooks:doctor run inside the hostile repository, with the repository's folder on PATH: it probes Codex, Copilot
// and the OpenCode plugin without starting anything the repository planted.
{
  const { project, markers } = hostileProject(PLANTED);
  const xdg = mkdtempSync(join(work, "xdg-"));
  const env = { CODEX_HOME: winPath(codexHome), XDG_CONFIG_HOME: winPath(xdg), ...markers };
  wine([join(bin, "aioson.exe"), "hooks:install", "--tool=copilot,opencode"], env, project);
  // PATH cut as in 3 (Wine's powershell.exe stub runs nothing), with the repository's own folder first; cmd.exe by
  // its path, since `wine cmd.exe` would start the project's.
  const doctorLine = `set PATH=${winPath(project)};C:\\windows\\system32;${winPath(bin)}& ${winPath(join(bin, "aioson.exe"))} hooks:doctor --tool=codex,copilot,opencode --json`;
  const run = wine(["C:\\windows\\system32\\cmd.exe", "/d", "/c", doctorLine], env, project);
  const report = doctorJson(run);
  const probes = report?.harnesses.flatMap((h) => h.handlers) ?? [];
  check(probes.length === 14 && probes.every((h) => h.exitCode === 0) && ranIn(markers).length === 0, "hooks:doctor in a hostile repository: 14 probes exit 0, nothing planted runs", `${probes.length} ran ${ranIn(markers).join(",")} ${run.stdout.slice(0, 600)}`);
  check(report?.issues.some((i) => i.code === "path_unsafe_entries") === true, "hooks:doctor names the PATH entry inside the repository");
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
