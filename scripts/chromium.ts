/**
 * Headless Chromium for the dashboard's browser tests and benchmark, driven by playwright-core (which downloads no
 * browser). Where it comes from, first found wins:
 *   1. AIOSON_CHROMIUM, an explicit path;
 *   2. on linux-x64, the Chromium inside the npm package @sparticuz/chromium (a devDependency, so `npm ci` alone
 *      gives a fresh machine one), unpacked once into node_modules/.cache/aioson-chromium/<version>/;
 *   3. Debian's package, /usr/bin/chromium.
 * The flags keep it off the network (this machine's network is closed, and a browser under test has nothing to
 * fetch); launch() gives it a fresh, empty profile each time.
 */
import { chmodSync, createReadStream, createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { createBrotliDecompress } from "node:zlib";
import { chromium, type Browser } from "playwright-core";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const ROOT = join(import.meta.dir, "..");
const DEBIAN_CHROMIUM = "/usr/bin/chromium";
/**
 * Only the package's data is read, never its JavaScript: its `executablePath()` reuses whatever sits at
 * `<tmpdir>/chromium` (any version, whoever put it there) and writes it in place, so an interrupted first run leaves
 * a truncated binary behind. Not running its code is also why its engines field (Node >= 22, which makes `npm ci`
 * on Node 20 print EBADENGINE) does not matter here.
 */
const PACKAGE = join(ROOT, "node_modules", "@sparticuz", "chromium");
const CACHE = join(ROOT, "node_modules", ".cache", "aioson-chromium");
const PARTIAL = ".partial-";

function isExecutableFile(path: string): boolean {
  try {
    const stat = statSync(path);
    return stat.isFile() && (stat.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

/** The packaged Chromium's version (its package.json), or null when the package is not installed. */
function packagedVersion(): string | null {
  try {
    const version: unknown = (JSON.parse(readFileSync(join(PACKAGE, "package.json"), "utf8")) as { version?: unknown }).version;
    return typeof version === "string" && /^\d+\.\d+\.\d+$/.test(version) ? version : null;
  } catch {
    return null;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Partial files of runs that died while unpacking (their pid is gone): 200 MiB each, never to be finished. */
function removeDeadPartials(dir: string): void {
  for (const name of readdirSync(dir)) {
    const pid = name.startsWith(PARTIAL) ? Number(name.slice(PARTIAL.length)) : NaN;
    if (Number.isInteger(pid) && pid > 0 && !processAlive(pid)) rmSync(join(dir, name), { force: true });
  }
}

/**
 * The packaged Chromium, unpacked on first use (1–3 s). It is decompressed into a file of this process's own and
 * renamed into place only once complete, so a run killed half-way never leaves a binary that looks usable, and two
 * test processes unpacking at once each rename a whole file.
 */
async function packagedChromium(): Promise<string | null> {
  if (process.platform !== "linux" || process.arch !== "x64") return null;
  const version = packagedVersion();
  const compressed = join(PACKAGE, "bin", "chromium.br");
  if (version === null || !existsSync(compressed)) return null;
  const dir = join(CACHE, version);
  const binary = join(dir, "chromium");
  if (isExecutableFile(binary)) return binary;
  mkdirSync(dir, { recursive: true });
  removeDeadPartials(dir);
  const partial = join(dir, `${PARTIAL}${process.pid}`);
  try {
    await pipeline(createReadStream(compressed), createBrotliDecompress(), createWriteStream(partial, { mode: 0o700 }));
    chmodSync(partial, 0o755);
    renameSync(partial, binary);
  } finally {
    rmSync(partial, { force: true });
  }
  return binary;
}

/** The Chromium to drive (see the order above), or an error that names every way to get one. */
export async function chromiumPath(): Promise<string> {
  const override = process.env.AIOSON_CHROMIUM;
  if (override) {
    if (!isExecutableFile(override)) throw new Error(`AIOSON_CHROMIUM=${override} is not an executable file.`);
    return override;
  }
  const packaged = await packagedChromium();
  if (packaged !== null) return packaged;
  if (isExecutableFile(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
  throw new Error(
    "No Chromium for the browser tests: on linux-x64 `npm ci` installs one (the devDependency @sparticuz/chromium, which needs libnss3 and libexpat1: apt-get install libnss3 libexpat1); elsewhere install Debian's package (apt-get install chromium) or set AIOSON_CHROMIUM to a Chromium binary.",
  );
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: await chromiumPath(), args: CHROMIUM_ARGS, headless: true });
}
