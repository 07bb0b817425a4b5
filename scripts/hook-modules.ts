/**
 * What a hook call can load: the CLI bundled as `scripts/build.ts` builds it (`--splitting`, ESM), then, for every
 * command src/cli.ts marks `hook: true`, the chunks the entry loads at start (its static imports) and every chunk the
 * command's own chunk can reach, statically or by a dynamic `import()` — a conservative list: everything the hook
 * could ever run. No hook may reach consola or src/human/ (the output of the commands people read, src/human/output.ts).
 * And what a hook loads at start (the chunks reached by static imports from the entry and the command's own chunk) may
 * import no Node built-in beyond node:fs and node:path: each other one costs a compiled hook at start (node:os was
 * ~0.2 ms of every hooks:emit), so the rare paths that need one load it when they run (`require`, `import()`).
 *
 *   bun scripts/hook-modules.ts            prints each hook command's module count and the forbidden ones it reaches
 *   bun scripts/hook-modules.ts --list     also lists the modules of each
 * `npm run bench` runs the same check (a missed one is a missed target); test/hook-modules.test.ts keeps it true.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..");

/** Modules only the commands people read may load. */
export const FORBIDDEN_ON_HOOKS: readonly RegExp[] = [/node_modules\/consola\//, /^src\/human\//];

/** Node built-ins a hook may import at start; every hook reads and writes files. */
export const BUILTINS_AT_START: readonly string[] = ["node:fs", "node:path"];

export type HookLoad = { command: string; modules: string[]; forbidden: string[]; startBuiltins: string[] };

type Output = { inputs: Record<string, unknown>; imports: { path: string; kind: string }[]; entryPoint?: string };
type Input = { imports: { path: string; kind: string; original?: string; external?: boolean }[] };

type Entry = { name: string; module: string; hook: boolean };

/** Every entry of src/cli.ts's command table: its name, its command module, whether it is marked `hook: true`. */
export function commandEntries(): Entry[] {
  const source = readFileSync(join(ROOT, "src", "cli.ts"), "utf8");
  return [...source.matchAll(/\{ name: "([^"]+)",[^\n]*?import\("\.\/(commands\/[^"]+)"\)/g)].map((m) => ({ name: m[1] as string, module: `src/${m[2]}`, hook: m[0].includes("hook: true,") }));
}

export function hookCommands(): Entry[] {
  return commandEntries().filter((entry) => entry.hook);
}

function reachable(outputs: Record<string, Output>, start: string, follow: (kind: string) => boolean): Set<string> {
  const seen = new Set<string>();
  const queue = [start];
  while (queue.length > 0) {
    const chunk = queue.pop() as string;
    if (seen.has(chunk)) continue;
    seen.add(chunk);
    for (const edge of outputs[chunk]?.imports ?? []) if (follow(edge.kind)) queue.push(edge.path.replace(/^\.\//, "./"));
  }
  return seen;
}

/** What each of `entries` can load (default: the hook commands). */
export async function hookModules(entries: readonly Entry[] = hookCommands()): Promise<HookLoad[]> {
  const outdir = mkdtempSync(join(tmpdir(), "aioson-hook-modules-"));
  try {
    const build = await Bun.build({ entrypoints: [join(ROOT, "src", "cli.ts")], outdir, target: "bun", format: "esm", splitting: true, minify: true, metafile: true });
    if (!build.success || !build.metafile) throw new Error(`bundle failed: ${build.logs.map(String).join("\n")}`);
    const outputs = build.metafile.outputs as Record<string, Output>;
    const names = Object.keys(outputs);
    const entry = names.find((name) => outputs[name]?.entryPoint?.endsWith("src/cli.ts"));
    if (!entry) throw new Error("no output for src/cli.ts in the bundle");
    const inputs = build.metafile.inputs as Record<string, Input>;
    const statically = (kind: string) => kind === "import-statement";
    const modulesOf = (chunks: Iterable<string>) => [...new Set([...chunks].flatMap((chunk) => Object.keys(outputs[chunk]?.inputs ?? {})))].sort();
    const atStart = reachable(outputs, entry, statically);
    return entries.map(({ name, module }) => {
      const own = names.find((chunk) => module in (outputs[chunk]?.inputs ?? {}));
      if (!own) throw new Error(`${name}: ${module} is in no chunk`);
      const modules = modulesOf(new Set([...atStart, ...reachable(outputs, own, () => true)]));
      const loadedAtStart = modulesOf(new Set([...atStart, ...reachable(outputs, own, statically)]));
      const builtins = loadedAtStart.flatMap((path) => (inputs[path]?.imports ?? []).filter((edge) => edge.external && statically(edge.kind)).map((edge) => edge.original ?? edge.path));
      return {
        command: name,
        modules,
        forbidden: modules.filter((path) => FORBIDDEN_ON_HOOKS.some((pattern) => pattern.test(path))),
        startBuiltins: [...new Set(builtins.filter((path) => path.startsWith("node:") && !BUILTINS_AT_START.includes(path)))].sort(),
      };
    });
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/** One line per hook command, and whether every one stays clear of the forbidden modules. */
export function hookModulesReport(loads: readonly HookLoad[], list = false): { lines: string[]; ok: boolean } {
  const problems = (load: HookLoad) => [...load.forbidden, ...load.startBuiltins.map((builtin) => `${builtin} at start`)];
  const lines = loads.map((load) => `${load.command.padEnd(32)} ${String(load.modules.length).padStart(3)} modules  ${problems(load).length === 0 ? "PASS" : `FAIL: ${problems(load).join(", ")}`}`);
  if (list) for (const load of loads) lines.push("", `${load.command}:`, ...load.modules.map((path) => `  ${path}`));
  return { lines, ok: loads.every((load) => problems(load).length === 0) };
}

if (import.meta.main) {
  const report = hookModulesReport(await hookModules(), process.argv.includes("--list"));
  console.log(report.lines.join("\n"));
  if (!report.ok) process.exitCode = 1;
}
