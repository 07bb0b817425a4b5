/**
 * Compiles the CLI into standalone binaries.
 *   bun scripts/build.ts            host binary at dist/aioson (dist/aioson.exe on Windows)
 *   bun scripts/build.ts --all      every release target as dist/aioson-<os>-<arch>[.exe] + dist/SHA256SUMS, and
 *                                   install.sh / install.ps1 beside them: dist/ is then a complete release folder
 *   bun scripts/build.ts --target=linux-arm64 [--target=...]   chosen targets only
 *   --no-bytecode / --no-minify / --no-splitting / --jit-policy=<n>     compare startup costs (see docs/benchmarks.md "Build flags")
 */
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const TARGETS = {
  "linux-x64": "bun-linux-x64",
  "linux-x64-musl": "bun-linux-x64-musl",
  "linux-arm64": "bun-linux-arm64",
  "linux-arm64-musl": "bun-linux-arm64-musl",
  "darwin-x64": "bun-darwin-x64",
  "darwin-arm64": "bun-darwin-arm64",
  "windows-x64": "bun-windows-x64",
  "windows-arm64": "bun-windows-arm64",
} as const;
export type TargetName = keyof typeof TARGETS;

const root = join(import.meta.dir, "..");
const dist = join(root, "dist");

function commitId(): string {
  if (process.env.AIOSON_COMMIT) return process.env.AIOSON_COMMIT;
  const git = Bun.spawnSync(["git", "rev-parse", "--short=12", "HEAD"], { cwd: root, stderr: "ignore" });
  const sha = git.exitCode === 0 ? git.stdout.toString().trim() : "";
  if (!sha) return "unknown";
  const dirty = Bun.spawnSync(["git", "status", "--porcelain", "--untracked-files=no"], { cwd: root, stderr: "ignore" });
  return dirty.stdout.toString().trim() ? `${sha}-dirty` : sha;
}

/**
 * Startup-relevant bundler flags (docs/benchmarks.md "Build flags" has the figures). `splitting` puts each lazily imported
 * command in its own embedded chunk, so a hook parses only the code of the command it runs. `jitPolicy` scales
 * JavaScriptCore's tier-up thresholds (`--compile-jit-policy`): a hook runs almost every function once, so
 * compiling any of them is wasted work.
 */
export type BuildFlags = { minify: boolean; bytecode: boolean; splitting: boolean; jitPolicy: number };

export const DEFAULT_JIT_POLICY = 100;

/** `--no-minify`, `--no-bytecode`, `--no-splitting`, `--jit-policy=<n>` (1 = Bun's normal policy). */
export function parseBuildFlags(argv: readonly string[]): BuildFlags {
  const policy = argv.find((a) => a.startsWith("--jit-policy="))?.slice("--jit-policy=".length);
  const jitPolicy = policy === undefined ? DEFAULT_JIT_POLICY : Number(policy);
  if (!Number.isFinite(jitPolicy) || jitPolicy < 1) throw new Error(`--jit-policy must be a number >= 1 (got ${policy})`);
  return { minify: !argv.includes("--no-minify"), bytecode: !argv.includes("--no-bytecode"), splitting: !argv.includes("--no-splitting"), jitPolicy };
}

function outfileFor(name: TargetName | "host"): string {
  if (name === "host") return join(dist, process.platform === "win32" ? "aioson.exe" : "aioson");
  return join(dist, `aioson-${name}${name.startsWith("windows") ? ".exe" : ""}`);
}

/** Compiles `entry` (default: the CLI) for one target; the benchmark builds its floor program with the same flags. */
export function compile(name: TargetName | "host", flags: BuildFlags, outfile = outfileFor(name), entry = join(root, "src", "cli.ts")): string {
  const args = [
    "build",
    "--compile",
    "--no-compile-autoload-dotenv",
    "--no-compile-autoload-bunfig",
    "--no-compile-autoload-tsconfig",
    "--no-compile-autoload-package-json",
    `--define=AIOSON_COMMIT=${JSON.stringify(commitId())}`,
    ...(flags.minify ? ["--minify"] : []),
    ...(flags.bytecode ? ["--bytecode"] : []),
    ...(flags.splitting ? ["--splitting"] : []),
    ...(flags.jitPolicy !== 1 ? [`--compile-jit-policy=${flags.jitPolicy}`] : []),
    "--format=esm",
    ...(name === "host" ? [] : [`--target=${TARGETS[name]}`]),
    entry,
    `--outfile=${outfile}`,
  ];
  const result = Bun.spawnSync([process.execPath, ...args], { cwd: root, stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) {
    throw new Error(`bun build failed for ${name}:\n${result.stdout.toString()}${result.stderr.toString()}`);
  }
  return outfile;
}

function sha256(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

function parseTargets(argv: readonly string[]): Array<TargetName | "host"> {
  if (argv.includes("--all")) return Object.keys(TARGETS) as TargetName[];
  const chosen = argv.filter((a) => a.startsWith("--target=")).map((a) => a.slice("--target=".length));
  for (const name of chosen) if (!(name in TARGETS)) throw new Error(`Unknown target: ${name} (known: ${Object.keys(TARGETS).join(", ")})`);
  return chosen.length > 0 ? (chosen as TargetName[]) : ["host"];
}

function main(): void {
  const argv = process.argv.slice(2);
  const flags = parseBuildFlags(argv);
  const targets = parseTargets(argv);
  mkdirSync(dist, { recursive: true });
  const built: string[] = [];
  for (const name of targets) {
    const started = performance.now();
    const outfile = compile(name, flags);
    built.push(outfile);
    console.log(`built ${name.padEnd(16)} ${outfile} (${Math.round(performance.now() - started)} ms)`);
  }
  if (targets.length > 1 || targets[0] !== "host") {
    const lines = built.map((file) => `${sha256(file)}  ${file.slice(dist.length + 1)}`);
    writeFileSync(join(dist, "SHA256SUMS"), `${lines.join("\n")}\n`);
    console.log(`wrote ${join(dist, "SHA256SUMS")}`);
    // What `curl -fsSL <release>/install.sh | sh` fetches first.
    for (const script of ["install.sh", "install.ps1"]) copyFileSync(join(root, script), join(dist, script));
    console.log("copied install.sh and install.ps1");
  }
}

if (import.meta.main) main();
