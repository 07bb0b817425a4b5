/**
 * `npm run bench`: startup and write-path costs of the compiled binary against a floor, in one interleaved run.
 *
 *   bun scripts/bench.ts [--runs=40] [--warmup=3] [--filter=<text>] [--strict] [--no-concurrency] [--no-build]
 *   bun scripts/bench.ts --build-flags [--runs=40]     the built-in cases for each --minify/--bytecode/--splitting build
 *   bun scripts/bench.ts --against=<binary>           every case also run by another build (e.g. main's), in the same
 *                                                     rounds, and each case's median over that build's: before/after
 *
 * Builds dist/aioson (scripts/build.ts) and a floor program (scripts/bench-floor.ts: read stdin, print `{}`) with the
 * same flags, loads every scripts/bench-cases/*.ts, then runs each case, the floor and /bin/true round-robin in a
 * shuffled order per round (stdin redirected from a file, stdout/stderr to /dev/null) and prints median, p95 and the
 * ratio of each median to the floor's. Each binary is timed through COPIES byte-identical copies, one after the other:
 * how the kernel happens to hold one executable in the page cache moved a 110 MB Bun binary by as much as 1.2 ms per
 * start here (a floor ran 6.4 ms, its fresh copy 5.2 ms), enough to swing a ratio by 0.2.
 * Peak RSS comes from a separate pass under GNU time: a child spawned by Bun
 * reports the *spawner's* RSS as its maxRSS (Linux keeps the high-water mark of the mm replaced at exec, and Bun
 * spawns with vfork), so `resourceUsage().maxRSS` would read ~25 MB for /bin/true.
 * Then the concurrency check: 400 `runtime:emit` events sent by 8, then 32, writer processes at once, and the events
 * found in the store. First of all, the module check of scripts/hook-modules.ts: no hook call can load consola or
 * src/human/ (one more target). Missed targets are printed; with --strict they make the exit status 1.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { BenchCase } from "./bench-cases/types.ts";
import { compile, DEFAULT_JIT_POLICY, parseBuildFlags, type BuildFlags } from "./build.ts";
import { inheritedEnv } from "./clean-env.ts";
import { hookModules, hookModulesReport } from "./hook-modules.ts";
import { withProgress } from "../src/human/progress.ts";
import { openDbFile } from "./open-db.ts";

const ROOT = join(import.meta.dir, "..");
const BENCH_DIR = join(ROOT, "dist", "bench");
const TIME = "/usr/bin/time";

type Options = {
  runs: number;
  warmup: number;
  filter: string | null;
  strict: boolean;
  concurrency: boolean;
  build: boolean;
  buildFlags: boolean;
  /** Another aioson binary run through every case in the same rounds (`--against=<path>`). */
  against: string | null;
  flags: BuildFlags;
};

function parseOptions(argv: readonly string[]): Options {
  const value = (name: string): string | undefined => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const count = (name: string, fallback: number): number => {
    const raw = value(name);
    const parsed = raw === undefined ? fallback : Number.parseInt(raw, 10);
    if (!Number.isInteger(parsed) || parsed < 1) throw new Error(`--${name} must be a positive integer (got ${raw})`);
    return parsed;
  };
  return {
    runs: count("runs", 40),
    warmup: count("warmup", 3),
    filter: value("filter") ?? null,
    strict: argv.includes("--strict"),
    concurrency: !argv.includes("--no-concurrency"),
    build: !argv.includes("--no-build"),
    buildFlags: argv.includes("--build-flags"),
    against: value("against") ?? null,
    flags: parseBuildFlags(argv),
  };
}

/** One command line to time; references (floor, /bin/true) have no `maxRatio`/`maxRssMiB` target. */
type Subject = {
  name: string;
  argv: string[];
  /** Copies of argv[0] used in turn (see COPIES). */
  binaries?: readonly string[];
  runs: number;
  cwd: string;
  env: Record<string, string>;
  stdinFile: string;
  maxRatio?: number;
  maxRssMiB?: number;
  ratioTo?: { name: string; max: number };
  curve?: { series: string; size: string };
  samples: number[];
  rssKiB: number[];
  error?: string;
};

const scratch = mkdtempSync(join(tmpdir(), "aioson-bench-"));
process.on("exit", () => rmSync(scratch, { recursive: true, force: true }));
let scratchCount = 0;

function scratchPath(prefix: string): string {
  return join(scratch, `${prefix}-${++scratchCount}`);
}

/** A project directory: `.aioson/config.md` marks it as a project root (spec 1.1). */
function makeProject(): string {
  const dir = scratchPath("project");
  mkdirSync(join(dir, ".aioson"), { recursive: true });
  writeFileSync(join(dir, ".aioson", "config.md"), "# bench project\n");
  return dir;
}

const HOME = scratchPath("home");
mkdirSync(HOME, { recursive: true });

/** The developer's environment minus anything aioson or a harness would react to (`inheritedEnv`), with a scratch HOME. */
function benchEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { ...inheritedEnv(), HOME, USERPROFILE: HOME, ...extra };
}

function stdinFile(text: string): string {
  const path = scratchPath("stdin");
  writeFileSync(path, text);
  return path;
}

function subject(name: string, argv: string[], extra: Partial<Subject> = {}): Subject {
  return { name, argv, cwd: scratch, env: benchEnv(), stdinFile: stdinFile(""), samples: [], rssKiB: [], runs: 0, ...extra };
}

const COPIES = 4;

/** COPIES fresh copies of `binary` in the scratch folder (see the header). */
function copiesOf(binary: string): string[] {
  return Array.from({ length: COPIES }, () => {
    const copy = scratchPath(basename(binary));
    copyFileSync(binary, copy);
    chmodSync(copy, 0o755);
    return copy;
  });
}

/** The project of each `shared` key, and the error of its setup (every case of the key fails with it). */
const sharedProjects = new Map<string, { project: string; error?: string }>();

async function prepare(binary: string, benchCase: BenchCase): Promise<{ project: string; error?: string }> {
  const known = benchCase.shared ? sharedProjects.get(benchCase.shared) : undefined;
  if (known) return known;
  const prepared: { project: string; error?: string } = { project: makeProject() };
  if (benchCase.shared) sharedProjects.set(benchCase.shared, prepared);
  try {
    await benchCase.setup?.(prepared.project, binary);
  } catch (error) {
    prepared.error = `setup failed: ${error instanceof Error ? error.message : String(error)}`;
  }
  return prepared;
}

async function caseSubject(binary: string, benchCase: BenchCase, binaries?: readonly string[]): Promise<Subject> {
  const { project, error } = await prepare(binary, benchCase);
  const fill = (text: string): string => text.replaceAll("{project}", project);
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(benchCase.env ?? {})) env[key] = fill(value);
  const made = subject(benchCase.name, [binary, ...benchCase.args.map(fill)], {
    cwd: project,
    env: benchEnv(env),
    stdinFile: stdinFile(fill(benchCase.stdin ?? "")),
    maxRatio: benchCase.maxRatio,
    maxRssMiB: benchCase.maxRssMiB,
    ratioTo: benchCase.ratioTo,
    binaries,
    curve: benchCase.curve,
  });
  if (error) made.error = error;
  return made;
}

function runOnce(s: Subject): { ms: number; code: number; stderr: string } {
  const argv = s.binaries ? [s.binaries[s.runs % s.binaries.length] as string, ...s.argv.slice(1)] : s.argv;
  s.runs++;
  const started = performance.now();
  const result = Bun.spawnSync(argv, { cwd: s.cwd, env: s.env, stdin: Bun.file(s.stdinFile), stdout: "ignore", stderr: "pipe" });
  const ms = performance.now() - started;
  return { ms, code: result.exitCode ?? -1, stderr: result.stderr.toString() };
}

/** Warm-up runs (through every copy); a case that does not exit 0 is reported, not timed. */
function warm(subjects: readonly Subject[], warmup: number): void {
  for (const s of subjects) {
    for (let i = 0; i < warmup * (s.binaries?.length ?? 1) && !s.error; i++) {
      const run = runOnce(s);
      if (run.code !== 0) s.error = `exit ${run.code}: ${run.stderr.trim().split("\n")[0] ?? ""}`.slice(0, 200);
    }
  }
}

function shuffle<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

function timeRoundRobin(subjects: readonly Subject[], runs: number): void {
  const live = subjects.filter((s) => !s.error);
  withProgress("Timing", (step) => {
    for (let round = 0; round < runs; round++) {
      step(`round ${round + 1}: ${live.length} cases`);
      for (const s of shuffle(live)) s.samples.push(runOnce(s).ms);
    }
  }, runs);
}

/** Peak RSS of a few runs, measured by GNU time (a small forking parent: see the header). */
function measureRss(subjects: readonly Subject[], runs: number): boolean {
  if (!existsSync(TIME)) return false;
  const out = scratchPath("rss");
  const measured = subjects.filter((s) => !s.error);
  withProgress("Peak RSS", (step) => {
    for (const s of measured) {
      step(s.name);
      for (let i = 0; i < runs; i++) {
        Bun.spawnSync([TIME, "-f", "%M", "-o", out, ...s.argv], { cwd: s.cwd, env: s.env, stdin: Bun.file(s.stdinFile), stdout: "ignore", stderr: "ignore" });
        const kib = Number.parseInt(readFileSync(out, "utf8").trim().split("\n").pop() ?? "", 10);
        if (Number.isFinite(kib)) s.rssKiB.push(kib);
      }
    }
  }, measured.length);
  return true;
}

function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

type Verdict = "PASS" | "FAIL" | "";

/** The median of `s` over the median of the case its `ratioTo` names (NaN when that case did not run). */
function caseRatio(s: Subject, subjects: readonly Subject[]): number {
  const other = subjects.find((o) => o.name === s.ratioTo?.name && !o.error);
  return other ? percentile(s.samples, 0.5) / percentile(other.samples, 0.5) : Number.NaN;
}

function verdict(s: Subject, floorMedian: number, subjects: readonly Subject[]): Verdict {
  if (s.error) return "FAIL";
  if (s.maxRatio === undefined && s.maxRssMiB === undefined && s.ratioTo === undefined) return "";
  const ratio = caseRatio(s, subjects);
  // A reference case left out of the run (--filter) leaves that target unchecked.
  const caseOk = s.ratioTo === undefined || Number.isNaN(ratio) || ratio <= s.ratioTo.max;
  const ratioOk = caseOk && (s.maxRatio === undefined || percentile(s.samples, 0.5) / floorMedian <= s.maxRatio);
  const peak = s.rssKiB.length > 0 ? Math.max(...s.rssKiB) / 1024 : undefined;
  const rssOk = s.maxRssMiB === undefined || (peak !== undefined && peak <= s.maxRssMiB);
  return ratioOk && rssOk ? "PASS" : "FAIL";
}

function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]): string =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join("  ").trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

function report(subjects: readonly Subject[], floor: Subject): Verdict[] {
  const floorMedian = percentile(floor.samples, 0.5);
  const verdicts: Verdict[] = [];
  const rows = subjects.map((s) => {
    const v = verdict(s, floorMedian, subjects);
    verdicts.push(v);
    if (s.error) return [s.name, "-", "-", "-", s.maxRatio ? `<= ${s.maxRatio}x` : "", "-", "FAIL (error)"];
    const median = percentile(s.samples, 0.5);
    const peak = s.rssKiB.length > 0 ? `${(Math.max(...s.rssKiB) / 1024).toFixed(1)}` : "-";
    const target = [s.maxRatio ? `<= ${s.maxRatio}x` : "", s.ratioTo ? `<= ${s.ratioTo.max}x case` : "", s.maxRssMiB ? `<= ${s.maxRssMiB} MiB` : ""]
      .filter(Boolean)
      .join(", ");
    return [s.name, median.toFixed(2), percentile(s.samples, 0.95).toFixed(2), `${(median / floorMedian).toFixed(2)}x`, target, peak, v];
  });
  console.log(table(["case", "median ms", "p95 ms", "x floor", "target", "peak RSS MiB", "result"], rows));
  for (const s of subjects) {
    if (!s.ratioTo || s.error) continue;
    const ratio = caseRatio(s, subjects);
    const shown = Number.isNaN(ratio) ? "not measured (reference case not in this run)" : `${ratio.toFixed(2)}x`;
    console.log(`"${s.name}" / "${s.ratioTo.name}": ${shown} (target <= ${s.ratioTo.max}x)`);
  }
  for (const s of subjects) if (s.error) console.log(`error in "${s.name}": ${s.error}`);
  return verdicts;
}

/**
 * The cases that are points of a curve, one row per series and one column per size: the ratio to the floor and the
 * peak RSS of each (`-` where the case did not run or failed).
 */
function printCurves(subjects: readonly Subject[], floor: Subject): void {
  const points = subjects.filter((s) => s.curve);
  if (points.length === 0) return;
  const floorMedian = percentile(floor.samples, 0.5);
  const sizes = [...new Set(points.map((s) => s.curve?.size as string))];
  const series = [...new Set(points.map((s) => s.curve?.series as string))];
  const cell = (s: Subject | undefined): string => {
    if (!s || s.error || s.samples.length === 0) return "-";
    const rss = s.rssKiB.length > 0 ? ` ${(Math.max(...s.rssKiB) / 1024).toFixed(0)} MiB` : "";
    return `${(percentile(s.samples, 0.5) / floorMedian).toFixed(2)}x${rss}`;
  };
  const rows = series.map((name) => [name, ...sizes.map((size) => cell(points.find((s) => s.curve?.series === name && s.curve.size === size)))]);
  section("growth: x floor and peak RSS by store size (events)");
  console.log(table(["command", ...sizes], rows));
}

async function loadCases(): Promise<BenchCase[]> {
  const folder = join(import.meta.dir, "bench-cases");
  const cases: BenchCase[] = [];
  for (const file of readdirSync(folder).sort()) {
    if (!file.endsWith(".ts") || file === "types.ts") continue;
    const mod = (await import(join(folder, file))) as { default?: unknown };
    if (!Array.isArray(mod.default)) throw new Error(`scripts/bench-cases/${file} must export default BenchCase[]`);
    cases.push(...(mod.default as BenchCase[]));
  }
  return cases;
}

const BUILT_IN: BenchCase[] = [
  { name: "aioson --version", args: ["--version"], maxRatio: 1.5 },
  { name: "runtime:emit (standalone note)", args: ["runtime:emit", "{project}", "--agent=bench", "--type=note", "--summary=x"], maxRatio: 2 },
];

function build(options: Options): { binary: string; floor: string } {
  mkdirSync(BENCH_DIR, { recursive: true });
  const binary = join(ROOT, "dist", "aioson");
  const floor = join(BENCH_DIR, "floor");
  if (options.build) {
    compile("host", options.flags, binary);
    compile("host", options.flags, floor, join(import.meta.dir, "bench-floor.ts"));
  }
  for (const file of [binary, floor]) if (!existsSync(file)) throw new Error(`${file} is missing (run without --no-build)`);
  return { binary, floor };
}

function flagLabel(flags: BuildFlags): string {
  const parts = [flags.minify ? "minify" : "", flags.bytecode ? "bytecode" : "", flags.splitting ? "splitting" : ""];
  return [...parts, flags.jitPolicy !== 1 ? `jit-policy ${flags.jitPolicy}` : ""].filter(Boolean).join("+") || "plain";
}

function section(title: string): void {
  console.log(`\n== ${title}`);
}

/** 400 `runtime:emit` calls spread over `writers` concurrent sequential loops; events found vs sent. */
async function concurrency(binary: string, writers: number, total: number): Promise<boolean> {
  const project = makeProject();
  Bun.spawnSync([binary, "runtime:init", project], { env: benchEnv(), stdout: "ignore", stderr: "ignore" });
  const type = `bench_concurrency_${writers}`;
  let failures = 0;
  let firstError = "";
  const started = performance.now();
  const loops = Array.from({ length: writers }, async (_, w) => {
    const share = Math.floor(total / writers) + (w < total % writers ? 1 : 0);
    for (let i = 0; i < share; i++) {
      const proc = Bun.spawn([binary, "runtime:emit", project, `--agent=writer${w}`, `--type=${type}`, `--summary=w${w} e${i}`], {
        cwd: project,
        env: benchEnv(),
        stdin: "ignore",
        stdout: "ignore",
        stderr: "pipe",
      });
      const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
      if (code !== 0) {
        failures++;
        firstError ||= `exit ${code}: ${stderr.trim().split("\n")[0] ?? ""}`;
      }
    }
  });
  await Promise.all(loops);
  const seconds = (performance.now() - started) / 1000;
  const written = countEvents(project, type);
  const ok = written === total && failures === 0;
  console.log(
    `${String(writers).padStart(2)} writers: ${written ?? "no store"}/${total} events written, ${failures} failed calls, ` +
      `${seconds.toFixed(1)} s (${(total / seconds).toFixed(0)} calls/s)  ${ok ? "PASS" : "FAIL"}${firstError ? `  first error: ${firstError.slice(0, 120)}` : ""}`,
  );
  return ok;
}

function countEvents(project: string, type: string): number | null {
  const path = join(project, ".aioson", "runtime", "aios.sqlite");
  if (!existsSync(path)) return null;
  const db = openDbFile(path, { readonly: true });
  try {
    const row = db.query("SELECT COUNT(*) AS n FROM execution_events WHERE event_type = ?").get(type) as { n: number } | null;
    return row?.n ?? 0;
  } catch {
    return null;
  } finally {
    db.close();
  }
}

/**
 * `--build-flags`: the floor and the cases (the built-in ones, or with `--filter` every matching case) for each
 * build of the matrix, interleaved.
 */
async function buildFlagsMatrix(options: Options): Promise<void> {
  const cases = options.filter ? [...BUILT_IN, ...(await loadCases())].filter((c) => c.name.includes(options.filter as string)) : BUILT_IN;
  mkdirSync(BENCH_DIR, { recursive: true });
  const subjects: Subject[] = [subject("/bin/true", ["/bin/true"])];
  const matrix: BuildFlags[] = [
    { minify: false, bytecode: false, splitting: false, jitPolicy: 1 },
    { minify: true, bytecode: false, splitting: false, jitPolicy: 1 },
    { minify: false, bytecode: true, splitting: false, jitPolicy: 1 },
    { minify: true, bytecode: true, splitting: false, jitPolicy: 1 },
    { minify: false, bytecode: true, splitting: true, jitPolicy: 1 },
    { minify: true, bytecode: true, splitting: true, jitPolicy: 1 },
    { minify: true, bytecode: true, splitting: true, jitPolicy: DEFAULT_JIT_POLICY },
  ];
  for (const flags of matrix) {
    const label = flagLabel(flags);
    const binary = compile("host", flags, join(BENCH_DIR, `aioson-${label}`));
    console.log(`${label.padEnd(26)} aioson ${(Bun.file(binary).size / 2 ** 20).toFixed(1)} MiB`);
    // The floor has no dynamic import: splitting cannot change it.
    if (!flags.splitting || flags.jitPolicy !== 1) {
      const floor = compile("host", flags, join(BENCH_DIR, `floor-${label}`), join(import.meta.dir, "bench-floor.ts"));
      subjects.push(subject(`floor (${label})`, [floor], { stdinFile: stdinFile("{}") }));
    }
    for (const benchCase of cases) subjects.push(await caseSubject(binary, { ...benchCase, name: `${benchCase.name} (${label})` }));
  }
  // A comparison, not a verdict: no targets in this table.
  for (const s of subjects) {
    delete s.maxRatio;
    delete s.maxRssMiB;
    delete s.ratioTo;
  }
  section(`build flags: ${options.runs} interleaved runs each after ${options.warmup} warm-up`);
  warm(subjects, options.warmup);
  timeRoundRobin(subjects, options.runs);
  const reference = subjects.find((s) => s.name === "floor (minify+bytecode)") as Subject;
  report(subjects, reference);
  console.log("(x floor is relative to the floor built with --minify --bytecode)");
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  console.log(`bench: Bun ${Bun.version}, ${navigator.hardwareConcurrency} CPUs, ${process.platform}-${process.arch}`);
  if (options.buildFlags) return buildFlagsMatrix(options);

  section(`build (${flagLabel(options.flags)})`);
  const { binary, floor } = build(options);
  console.log(`aioson: ${binary}\nfloor:  ${floor}`);

  section("hook modules: what each hook command can load (none may reach consola or src/human/)");
  const modules = hookModulesReport(await hookModules());
  console.log(modules.lines.join("\n"));

  const cases = [...BUILT_IN, ...(await loadCases())].filter((c) => !options.filter || c.name.includes(options.filter));
  const floorSubject = subject("floor (read stdin, print {})", [floor], { stdinFile: stdinFile("{}"), binaries: copiesOf(floor) });
  const subjects: Subject[] = [floorSubject, subject("/bin/true", ["/bin/true"])];
  const binaries = copiesOf(binary);
  const against = options.against;
  const againstCopies = against ? copiesOf(against) : [];
  for (const benchCase of cases) {
    subjects.push(await caseSubject(binary, benchCase, binaries));
    // The same case by the other build, its own project prepared by that build, untargeted: only compared.
    if (against) subjects.push(await caseSubject(against, { name: `${benchCase.name} [against]`, args: benchCase.args, stdin: benchCase.stdin, env: benchCase.env, setup: benchCase.setup }, againstCopies));
  }

  section(`startup: ${options.runs} interleaved runs each after ${options.warmup} warm-up`);
  warm(subjects, options.warmup);
  timeRoundRobin(subjects, options.runs);
  const rss = measureRss(subjects, 5);
  const verdicts = report(subjects, floorSubject);
  if (against) {
    section(`against ${against}: each case's median over the other build's, same rounds`);
    for (const s of subjects) {
      const other = subjects.find((o) => o.name === `${s.name} [against]`);
      if (!other || s.error || other.error) continue;
      console.log(`${s.name.padEnd(80)} ${(percentile(s.samples, 0.5) / percentile(other.samples, 0.5)).toFixed(3)}x`);
    }
  }
  if (!rss) console.log(`(peak RSS not measured: ${TIME} (Debian package "time") is missing)`);
  printCurves(subjects, floorSubject);

  let missed = verdicts.filter((v) => v === "FAIL").length + (modules.ok ? 0 : 1);
  if (options.concurrency) {
    section("concurrency: 400 runtime:emit events from concurrent writer processes");
    for (const writers of [8, 32]) if (!(await concurrency(binary, writers, 400))) missed++;
  }

  section("summary");
  const targets = verdicts.filter((v) => v !== "").length + 1 + (options.concurrency ? 2 : 0);
  console.log(missed === 0 ? `all ${targets} targets met` : `${missed} of ${targets} targets missed`);
  if (missed > 0 && options.strict) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
