/**
 * install.sh through its real entry points: `curl -fsSL <url>/install.sh | sh` against a dist folder served on
 * 127.0.0.1, `sh install.sh` with AIOSON_DIST, and from a (fake) source checkout. The fake dist holds the host
 * binary (dist/aioson, built by `npm test`) under this machine's release name, so nothing is cross-compiled here.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, cleanupTemp, REPO_ROOT, tempDir, testEnv } from "./helpers.ts";

// Each install copies a ~100 MB binary; a busy 2-core machine needs more than the 5 s default.
setDefaultTimeout(60_000);

const INSTALL_SH = join(REPO_ROOT, "install.sh");

/** The release name install.sh must pick on this machine (same rule: OS, CPU, glibc vs musl). */
function hostTarget(): string {
  const os = process.platform === "darwin" ? "darwin" : "linux";
  const arch = process.arch === "arm64" ? "arm64" : "x64";
  const ldd = Bun.spawnSync(["sh", "-c", "ldd --version 2>&1 || true"]).stdout.toString();
  return `aioson-${os}-${arch}${os === "linux" && ldd.includes("musl") ? "-musl" : ""}`;
}

const TARGET = hostTarget();
const HOST_VERSION = Bun.spawnSync([BINARY, "--version"]).stdout.toString().trim();

function sha256(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

/** A release folder: install.sh, the host binary under its release name, SHA256SUMS. */
function makeDist(corrupt = false): string {
  const dir = tempDir("aioson-dist-");
  copyFileSync(INSTALL_SH, join(dir, "install.sh"));
  copyFileSync(BINARY, join(dir, TARGET));
  writeFileSync(join(dir, "SHA256SUMS"), `${"0".repeat(64)}  aioson-other-target\n${sha256(join(dir, TARGET))}  ${TARGET}\n`);
  if (corrupt) {
    // Flip one byte after the checksum was written: a tampered or truncated download.
    const bytes = readFileSync(join(dir, TARGET));
    bytes[bytes.length - 100] = (bytes[bytes.length - 100] ?? 0) ^ 0xff;
    writeFileSync(join(dir, TARGET), bytes);
  }
  return dir;
}

type Run = { code: number; out: string; err: string };

/** Runs a shell command line asynchronously (the HTTP server lives in this process and must keep serving). */
async function sh(command: string, env: Record<string, string | undefined>, cwd?: string): Promise<Run> {
  const home = tempDir("aioson-home-");
  const proc = Bun.spawn(["sh", "-c", command], {
    cwd: cwd ?? home,
    env: testEnv(home, { SHELL: "/bin/bash", ...env }),
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, out, err };
}

/** A PATH folder whose `name` scripts shadow the real tools. */
function shimDir(scripts: Record<string, string>): string {
  const dir = tempDir("aioson-shim-");
  for (const [name, body] of Object.entries(scripts)) {
    writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

function entries(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

/**
 * A PATH folder with every tool of the system except the two download tools. The names already linked are
 * remembered, not looked up: a dangling symlink in /usr/bin (a package half removed) does not exist for existsSync,
 * and /bin is /usr/bin on a merged-usr system, so the same name comes twice.
 */
function toolsWithoutDownloaders(): string {
  const tools = tempDir("aioson-tools-");
  const linked = new Set(["curl", "wget"]);
  for (const folder of ["/usr/local/bin", "/usr/bin", "/bin"]) {
    for (const name of entries(folder)) {
      if (linked.has(name)) continue;
      linked.add(name);
      symlinkSync(join(folder, name), join(tools, name));
    }
  }
  return tools;
}

let good = "";
let bad = "";
let server: ReturnType<typeof Bun.serve>;
let base = "";
const requested: string[] = [];

beforeAll(() => {
  good = makeDist();
  bad = makeDist(true);
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const [, folder, name] = new URL(request.url).pathname.split("/");
      requested.push(`${folder}/${name}`);
      const root = folder === "good" ? good : folder === "bad" ? bad : null;
      if (!root || !name || !existsSync(join(root, name))) return new Response("not found", { status: 404 });
      return new Response(Bun.file(join(root, name)));
    },
  });
  base = `http://127.0.0.1:${server.port}`;
});

afterAll(() => {
  server?.stop(true);
  cleanupTemp();
});

describe("install.sh", () => {
  test("curl | sh downloads, verifies and installs; a second run is idempotent", async () => {
    const bin = join(tempDir(), "bin");
    const env = { AIOSON_BASE_URL: `${base}/good`, AIOSON_INSTALL_DIR: bin };
    const first = await sh(`curl -fsSL ${base}/good/install.sh | sh`, env);
    expect(first.err).toBe("");
    expect(first.code).toBe(0);
    expect(first.out).toContain(`Installed ${HOST_VERSION} at ${join(bin, "aioson")}`);
    expect(first.out).toContain(`export PATH="${bin}:$PATH"`);
    expect(first.out).not.toContain("aioson at work"); // no demo outside a checkout
    expect(requested).toContain(`good/${TARGET}`);
    expect(requested).toContain("good/SHA256SUMS");
    expect(entries(bin)).toEqual(["aioson"]);
    expect(sha256(join(bin, "aioson"))).toBe(sha256(BINARY));
    expect(Bun.spawnSync([join(bin, "aioson"), "--version"]).stdout.toString().trim()).toBe(HOST_VERSION);

    const second = await sh(`curl -fsSL ${base}/good/install.sh | sh`, env);
    expect(second.code).toBe(0);
    expect(second.out).toContain(`${HOST_VERSION} is already installed at ${join(bin, "aioson")} (unchanged)`);
    expect(entries(bin)).toEqual(["aioson"]);
  });

  test("a folder already on PATH gets no PATH advice", async () => {
    const bin = join(tempDir(), "bin");
    const run = await sh(`curl -fsSL ${base}/good/install.sh | sh`, {
      AIOSON_BASE_URL: `${base}/good`,
      AIOSON_INSTALL_DIR: bin,
      PATH: `${bin}:${process.env.PATH ?? ""}`,
    });
    expect(run.code).toBe(0);
    expect(run.out).not.toContain("is not on your PATH");
  });

  test("a corrupted binary is refused and the previous install is left as it was", async () => {
    const bin = tempDir();
    writeFileSync(join(bin, "aioson"), "#!/bin/sh\necho previous\n");
    chmodSync(join(bin, "aioson"), 0o755);
    const run = await sh(`curl -fsSL ${base}/bad/install.sh | sh`, { AIOSON_BASE_URL: `${base}/bad`, AIOSON_INSTALL_DIR: bin });
    expect(run.code).toBe(1);
    expect(run.err).toContain(`checksum mismatch for ${TARGET}: refusing to install it`);
    expect(run.err).toContain(`expected ${sha256(join(good, TARGET))}`);
    expect(entries(bin)).toEqual(["aioson"]);
    expect(readFileSync(join(bin, "aioson"), "utf8")).toBe("#!/bin/sh\necho previous\n");
  });

  test("a corrupted binary into a fresh folder leaves nothing behind, not even the folder", async () => {
    const bin = join(tempDir(), "bin");
    const run = await sh(`curl -fsSL ${base}/bad/install.sh | sh`, { AIOSON_BASE_URL: `${base}/bad`, AIOSON_INSTALL_DIR: bin });
    expect(run.code).toBe(1);
    expect(run.err).toContain("checksum mismatch");
    expect(existsSync(bin)).toBe(false);
  });

  test("a download that fails is a clear error", async () => {
    const bin = join(tempDir(), "bin");
    const run = await sh(`sh ${join(good, "install.sh")}`, { AIOSON_BASE_URL: `${base}/missing`, AIOSON_INSTALL_DIR: bin });
    expect(run.code).toBe(1);
    expect(run.err).toContain(`could not download ${base}/missing/SHA256SUMS`);
    expect(entries(bin)).toEqual([]);
  });

  test("AIOSON_DIST installs from a local folder of built binaries", async () => {
    const bin = join(tempDir(), "bin");
    const run = await sh(`sh ${join(good, "install.sh")}`, { AIOSON_DIST: good, AIOSON_INSTALL_DIR: bin });
    expect(run.code).toBe(0);
    expect(run.out).toContain(`Installed ${HOST_VERSION}`);
    expect(sha256(join(bin, "aioson"))).toBe(sha256(BINARY));
  });

  test("AIOSON_DIST with a corrupted binary is refused too", async () => {
    const bin = join(tempDir(), "bin");
    const run = await sh(`sh ${join(good, "install.sh")}`, { AIOSON_DIST: bad, AIOSON_INSTALL_DIR: bin });
    expect(run.code).toBe(1);
    expect(run.err).toContain("checksum mismatch");
    expect(entries(bin)).toEqual([]);
  });

  test("AIOSON_VERSION pins the version: another one is refused", async () => {
    const bin = join(tempDir(), "bin");
    const run = await sh(`sh ${join(good, "install.sh")}`, { AIOSON_DIST: good, AIOSON_INSTALL_DIR: bin, AIOSON_VERSION: "99.0.0" });
    expect(run.code).toBe(1);
    expect(run.err).toContain(`AIOSON_VERSION=99.0.0 was asked for but the binary is: ${HOST_VERSION}`);
    expect(entries(bin)).toEqual([]);
  });

  test("a verified binary that does not run here is refused", async () => {
    const dist = tempDir("aioson-dist-");
    writeFileSync(join(dist, TARGET), "#!/bin/sh\necho 'cannot execute: wrong libc' >&2\nexit 126\n");
    chmodSync(join(dist, TARGET), 0o755);
    writeFileSync(join(dist, "SHA256SUMS"), `${sha256(join(dist, TARGET))}  ${TARGET}\n`);
    const bin = join(tempDir(), "bin");
    const run = await sh(`sh ${join(good, "install.sh")}`, { AIOSON_DIST: dist, AIOSON_INSTALL_DIR: bin });
    expect(run.code).toBe(1);
    expect(run.err).toContain("the verified binary does not run on this machine: refusing to install it");
    expect(run.err).toContain("cannot execute: wrong libc");
    expect(entries(bin)).toEqual([]);
  });

  test("a failed first install takes back every folder it made, parents included, and none it found", async () => {
    const home = tempDir("aioson-home-");
    const run = await sh(`sh ${join(good, "install.sh")}`, { AIOSON_DIST: bad, HOME: home });
    expect(run.code).toBe(1);
    expect(run.err).toContain("checksum mismatch");
    expect(entries(home)).toEqual([]);

    const parent = tempDir();
    mkdirSync(join(parent, "found"));
    const deep = join(parent, "found", "made", "bin");
    expect((await sh(`sh ${join(good, "install.sh")}`, { AIOSON_DIST: bad, AIOSON_INSTALL_DIR: deep })).code).toBe(1);
    expect(entries(parent)).toEqual(["found"]);
    expect(entries(join(parent, "found"))).toEqual([]);
  });

  test("the C++ runtime hint only when the loader says the C++ runtime is missing", async () => {
    // A musl x64 machine (uname and ldd shimmed), whose release is a script saying what a loader would.
    const musl = shimDir({ uname: `case "$1" in -s) echo Linux ;; *) echo x86_64 ;; esac`, ldd: "echo 'musl libc (x86_64)'" });
    const said = async (message: string) => {
      const dist = tempDir("aioson-dist-");
      writeFileSync(join(dist, "aioson-linux-x64-musl"), `#!/bin/sh\necho '${message}' >&2\nexit 127\n`);
      chmodSync(join(dist, "aioson-linux-x64-musl"), 0o755);
      writeFileSync(join(dist, "SHA256SUMS"), `${sha256(join(dist, "aioson-linux-x64-musl"))}  aioson-linux-x64-musl\n`);
      const bin = join(tempDir(), "bin");
      const run = await sh(`sh ${join(good, "install.sh")}`, { AIOSON_DIST: dist, AIOSON_INSTALL_DIR: bin, PATH: `${musl}:${process.env.PATH}` });
      expect(run.code).toBe(1);
      expect(run.err).toContain("the verified binary does not run on this machine");
      return run.err;
    };
    expect(await said("Error loading shared library libstdc++.so.6: No such file or directory")).toContain("apk add libstdc++ libgcc");
    const wrongCpu = await said("cannot execute binary file: Exec format error");
    expect(wrongCpu).not.toContain("apk add");
    expect(wrongCpu).toContain("the binary is not for this machine (linux/x64-musl detected)");
  });

  test("an https download never follows a redirect to plain http (curl and wget)", async () => {
    // curl: the switches that make curl itself refuse it, on every download of an https address.
    const log = join(tempDir(), "curl-args");
    const curl = shimDir({ curl: `printf '%s\\n' "$@" >>'${log}'; exit 22` });
    const viaCurl = await sh(`sh ${join(good, "install.sh")}`, { AIOSON_BASE_URL: "https://releases.invalid/v1", AIOSON_INSTALL_DIR: join(tempDir(), "bin"), PATH: `${curl}:${process.env.PATH}` });
    expect(viaCurl.code).toBe(1);
    const args = readFileSync(log, "utf8").split("\n");
    expect(args.slice(0, 4)).toEqual(["--proto", "=https", "--proto-redir", "=https"]);

    // wget, alone on PATH: a response that went through an http:// Location fails the download.
    const tools = toolsWithoutDownloaders();
    const wgetBody = `out=""; while [ $# -gt 1 ]; do [ "$1" = -O ] && out=$2; shift; done
echo '  HTTP/1.1 302 Found' >&2; echo '  Location: http://mirror.invalid/SHA256SUMS' >&2; echo '  HTTP/1.1 200 OK' >&2
cp '${join(good, "SHA256SUMS")}' "$out"`;
    writeFileSync(join(tools, "wget"), `#!/bin/sh\n${wgetBody}\n`);
    chmodSync(join(tools, "wget"), 0o755);
    const bin = join(tempDir(), "bin");
    const viaWget = await sh(`sh ${join(good, "install.sh")}`, { AIOSON_BASE_URL: "https://releases.invalid/v1", AIOSON_INSTALL_DIR: bin, PATH: tools });
    expect(viaWget.code).toBe(1);
    expect(viaWget.err).toContain("https://releases.invalid/v1/SHA256SUMS redirected to a plain http:// address: refused");
    expect(viaWget.err).toContain("could not download https://releases.invalid/v1/SHA256SUMS");
    expect(existsSync(bin)).toBe(false);
  });

  test("--help prints the usage; any other argument is refused before anything is done", async () => {
    const bin = join(tempDir(), "bin");
    const help = await sh(`sh ${join(good, "install.sh")} --help`, { AIOSON_DIST: good, AIOSON_INSTALL_DIR: bin });
    expect(help.code).toBe(0);
    for (const name of ["AIOSON_INSTALL_DIR", "AIOSON_DIST", "AIOSON_BASE_URL", "AIOSON_VERSION", "AIOSON_DEMO"]) expect(help.out).toContain(name);
    const wrong = await sh(`sh ${join(good, "install.sh")} --prefix=/opt`, { AIOSON_DIST: good, AIOSON_INSTALL_DIR: bin });
    expect(wrong.code).toBe(1);
    expect(wrong.err).toContain("unknown argument '--prefix=/opt'");
    expect(existsSync(bin)).toBe(false);
  });

  test("an unsupported operating system or CPU is a clear error", async () => {
    const bin = join(tempDir(), "bin");
    const bsd = shimDir({ uname: `case "$1" in -s) echo FreeBSD ;; *) echo amd64 ;; esac` });
    const os = await sh(`sh ${join(good, "install.sh")}`, { AIOSON_DIST: good, AIOSON_INSTALL_DIR: bin, PATH: `${bsd}:${process.env.PATH}` });
    expect(os.code).toBe(1);
    expect(os.err).toContain("unsupported platform: operating system 'FreeBSD'");

    const riscv = shimDir({ uname: `case "$1" in -s) echo Linux ;; *) echo riscv64 ;; esac` });
    const cpu = await sh(`sh ${join(good, "install.sh")}`, { AIOSON_DIST: good, AIOSON_INSTALL_DIR: bin, PATH: `${riscv}:${process.env.PATH}` });
    expect(cpu.code).toBe(1);
    expect(cpu.err).toContain("unsupported platform: CPU 'riscv64' on linux");
    expect(existsSync(bin)).toBe(false);
  });

  test("musl and arm64 machines get their own builds", async () => {
    const bin = join(tempDir(), "bin");
    const alpine = shimDir({ uname: `case "$1" in -s) echo Linux ;; *) echo aarch64 ;; esac`, ldd: "echo 'musl libc (aarch64)'" });
    const run = await sh(`sh ${join(good, "install.sh")}`, { AIOSON_DIST: good, AIOSON_INSTALL_DIR: bin, PATH: `${alpine}:${process.env.PATH}` });
    expect(run.code).toBe(1);
    expect(run.err).toContain(`${good} has no aioson-linux-arm64-musl`);
  });

  test("no curl and no wget is a clear error", async () => {
    const tools = toolsWithoutDownloaders();
    const bin = join(tempDir(), "bin");
    const run = await sh(`sh ${join(good, "install.sh")}`, { AIOSON_BASE_URL: `${base}/good`, AIOSON_INSTALL_DIR: bin, PATH: tools });
    expect(run.code).toBe(1);
    expect(run.err).toContain("no download tool found: install curl or wget");
    expect(entries(bin)).toEqual([]);
  });

  test("an install folder that cannot be created or written is a clear error", async () => {
    const parent = tempDir();
    writeFileSync(join(parent, "file"), "not a folder");
    const blocked = await sh(`sh ${join(good, "install.sh")}`, { AIOSON_DIST: good, AIOSON_INSTALL_DIR: join(parent, "file", "bin") });
    expect(blocked.code).toBe(1);
    expect(blocked.err).toContain(`cannot create the install folder ${join(parent, "file", "bin")}`);

    // root may write anywhere on disk, but not into /proc; others are stopped by a read-only folder.
    const readOnly = process.getuid?.() === 0 && process.platform === "linux" ? "/proc/self/fdinfo" : tempDir();
    if (!readOnly.startsWith("/proc")) chmodSync(readOnly, 0o555);
    const denied = await sh(`sh ${join(good, "install.sh")}`, { AIOSON_DIST: good, AIOSON_INSTALL_DIR: readOnly });
    expect(denied.code).toBe(1);
    expect(denied.err).toContain(`the install folder ${readOnly} is not writable`);
  });

  test("from a source checkout it builds when needed, installs, then shows aioson at work", async () => {
    // A stand-in checkout whose `npm run build` copies the real host binary: the build tooling is not under test.
    const checkout = tempDir("aioson-checkout-");
    mkdirSync(join(checkout, "src"));
    mkdirSync(join(checkout, "scripts"));
    writeFileSync(join(checkout, "src", "cli.ts"), "");
    writeFileSync(join(checkout, "scripts", "build.ts"), "");
    copyFileSync(INSTALL_SH, join(checkout, "install.sh"));
    writeFileSync(join(checkout, "fake-build.cjs"), `const fs = require("fs");\nfs.mkdirSync("dist", { recursive: true });\nfs.copyFileSync(${JSON.stringify(BINARY)}, "dist/aioson");\n`);
    const build = "node fake-build.cjs";
    writeFileSync(join(checkout, "package.json"), JSON.stringify({ name: "fake-aioson", version: "0.0.0", private: true, scripts: { build } }));
    writeFileSync(
      join(checkout, "package-lock.json"),
      JSON.stringify({ name: "fake-aioson", version: "0.0.0", lockfileVersion: 3, requires: true, packages: { "": { name: "fake-aioson", version: "0.0.0" } } }),
    );
    const bin = join(tempDir(), "bin");
    const first = await sh("sh install.sh", { AIOSON_INSTALL_DIR: bin }, checkout);
    expect(first.code).toBe(0);
    expect(first.out).toContain("Installing build dependencies (npm ci)");
    expect(first.out).toContain("Building aioson for this machine (npm run build)");
    expect(first.out).toContain(`Installed ${HOST_VERSION} at ${join(bin, "aioson")}`);
    expect(first.out).toContain("aioson at work in a temporary project");
    expect(first.out).toContain("$ aioson runtime:init ");
    expect(sha256(join(bin, "aioson"))).toBe(sha256(BINARY));

    const second = await sh(`sh ${join(checkout, "install.sh")}`, { AIOSON_INSTALL_DIR: bin, AIOSON_DEMO: "0" });
    expect(second.code).toBe(0);
    expect(second.out).toContain(`Using the existing build: ${join(checkout, "dist", "aioson")}`);
    expect(second.out).toContain("(unchanged)");
    expect(second.out).not.toContain("aioson at work");

    // A source newer than the build: rebuilt before installing (dependencies already there: no npm ci).
    mkdirSync(join(checkout, "node_modules"));
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(checkout, "src", "cli.ts"), later, later);
    const third = await sh(`sh ${join(checkout, "install.sh")}`, { AIOSON_INSTALL_DIR: bin, AIOSON_DEMO: "0" });
    expect(third.code).toBe(0);
    expect(third.out).toContain("Building aioson for this machine (npm run build)");
    expect(third.out).not.toContain("npm ci");
  });
});
