/**
 * How the OpenCode plugin finds and starts aioson (src/install/opencode-plugin.ts `locate` and `launch`), as a table:
 * on Windows cmd.exe — and CreateProcess, for a bare name — look in the current folder, the project root, before
 * PATH, so a repository's aioson.cmd, aioson.bat, aioson.exe or cmd.exe must never be what runs. The functions are
 * taken from the plugin the real binary installs and run with a fake file system, Windows paths and Windows rules;
 * the Wine smoke (scripts/wine/smoke.ts) runs the same plugin inside a Windows Bun against a real cmd.exe.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, posix, win32 } from "node:path";
import { cleanupTemp, runAioson, tempDir } from "./helpers.ts";

afterAll(cleanupTemp);

type Env = Record<string, string>;
type Host = { platform: string; path: typeof win32; home: string; isFile: (path: string) => boolean; real: (path: string) => string };
type Launch = { command: string; args: string[]; verbatim: boolean; env: Env };
type Plugin = {
  locate: (word: string, root: string, env: Env, host: Host) => string | null;
  launch: (file: string, args: string[], env: Env, host: Host) => Launch;
};

/** The plugin file `hooks:install --tool=opencode` writes. */
function installedPlugin(): string {
  const home = tempDir("aioson-home-");
  expect(runAioson(["hooks:install", "--tool=opencode"], { home }).code).toBe(0);
  return readFileSync(join(home, ".config", "opencode", "plugins", "aioson.js"), "utf8");
}

/** The plugin's own lookup functions, compiled from its text. */
function pluginFunctions(source: string): Plugin {
  const pieces = ["cmdEscape", "envValue", "within", "insideRoot", "candidates", "locate", "comSpec", "launch"].map((name) => {
    const found = new RegExp(`^function ${name}\\(.*?\\n\\}`, "ms").exec(source)?.[0];
    if (!found) throw new Error(`the plugin has no function ${name}`);
    return found;
  });
  const runnable = /^const RUNNABLE = .*;$/m.exec(source)?.[0];
  if (!runnable) throw new Error("the plugin has no RUNNABLE list");
  return new Function(`${runnable}\n${pieces.join("\n")}\nreturn { locate, launch };`)() as Plugin;
}

const plugin = pluginFunctions(installedPlugin());

/** A Windows machine: the files that exist (case-insensitive, like NTFS) and the links between folders. */
function windows(files: readonly string[], links: Record<string, string> = {}, home = "C:\\Users\\me"): Host {
  const known = new Set(files.map((file) => file.toLowerCase()));
  return {
    platform: "win32", path: win32, home,
    isFile: (path) => known.has(path.toLowerCase()),
    real: (path) => Object.entries(links).reduce((p, [from, to]) => (p.toLowerCase().startsWith(from.toLowerCase()) ? to + p.slice(from.length) : p), path),
  };
}

const ROOT = "C:\\work\\repo";
/** What a hostile repository holds at its root and in its own bin folders. */
const PLANTED = ["aioson.exe", "aioson.cmd", "aioson.bat", "aioson.com", "cmd.exe", "cmd.bat", "bin\\aioson.exe", "node_modules\\.bin\\aioson.cmd"].map((f) => `${ROOT}\\${f}`);
const USER_EXE = "C:\\Users\\me\\.local\\bin\\aioson.exe";
const BASE_ENV: Env = { PATHEXT: ".COM;.EXE;.BAT;.CMD;.VBS;.JS", ComSpec: "C:\\WINDOWS\\system32\\cmd.exe", SystemRoot: "C:\\WINDOWS" };

describe("the OpenCode plugin's lookup on Windows", () => {
  const cases: { name: string; path: string; files?: string[]; env?: Env; links?: Record<string, string>; word?: string; home?: string; expected: string | null }[] = [
    { name: "the current folder is never searched, nor empty, relative or project entries", path: `${ROOT};;.;bin;.\\node_modules\\.bin;${ROOT}\\bin;${ROOT}\\node_modules\\.bin;C:\\Users\\me\\.local\\bin`, expected: USER_EXE },
    { name: "a project entry spelled in another case is still the project", path: `c:\\WORK\\Repo\\BIN;C:\\Users\\me\\.local\\bin`, expected: USER_EXE },
    { name: "a PATH folder linked into the project is the project", path: `C:\\tools;C:\\Users\\me\\.local\\bin`, files: [`${ROOT}\\bin\\aioson.exe`], links: { "C:\\tools": `${ROOT}\\bin` }, expected: USER_EXE },
    { name: "a project reached through a link is the project", path: `D:\\repo\\bin;C:\\Users\\me\\.local\\bin`, files: ["D:\\repo\\bin\\aioson.exe"], links: { [ROOT]: "D:\\repo" }, expected: USER_EXE },
    { name: "a quoted entry is an entry", path: `"C:\\Program Files\\aioson"`, files: ["C:\\Program Files\\aioson\\aioson.exe"], expected: "C:\\Program Files\\aioson\\aioson.exe" },
    { name: "PATHEXT order decides within a folder", path: "C:\\bin", files: ["C:\\bin\\aioson.cmd", "C:\\bin\\aioson.exe"], env: { PATHEXT: ".CMD;.EXE" }, expected: "C:\\bin\\aioson.cmd" },
    { name: "only runnable extensions count (no .js, no .ps1)", path: "C:\\bin;C:\\Users\\me\\.local\\bin", files: ["C:\\bin\\aioson.js", "C:\\bin\\aioson.ps1"], expected: USER_EXE },
    { name: "a PATHEXT without runnable extensions falls back to .com .exe .bat .cmd", path: "C:\\Users\\me\\.local\\bin", env: { PATHEXT: ".PS1" }, expected: USER_EXE },
    { name: "a project that holds the home folder is the user's own", path: `${ROOT}\\.local\\bin`, home: ROOT, files: [`${ROOT}\\.local\\bin\\aioson.exe`], expected: `${ROOT}\\.local\\bin\\aioson.exe` },
    { name: "nothing outside the project: nothing runs", path: `${ROOT};${ROOT}\\bin;.`, files: [], expected: null },
    { name: "AIOSON_BIN's bare name follows the same rules", word: "aioson-dev", path: `${ROOT}\\bin;C:\\dev`, files: [`${ROOT}\\bin\\aioson-dev.exe`, "C:\\dev\\aioson-dev.cmd"], expected: "C:\\dev\\aioson-dev.cmd" },
    { name: "AIOSON_BIN's absolute path is the user's choice", word: "D:\\tools\\aioson", path: "", files: ["D:\\tools\\aioson.exe"], expected: "D:\\tools\\aioson.exe" },
    { name: "AIOSON_BIN's relative path is taken from the root, as the user asked", word: ".\\bin\\aioson", path: "C:\\Users\\me\\.local\\bin", expected: `${ROOT}\\bin\\aioson.exe` },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const host = windows([...PLANTED, USER_EXE, ...(c.files ?? [])], c.links, c.home);
      expect(plugin.locate(c.word ?? "aioson", ROOT, { ...BASE_ENV, Path: c.path, ...c.env }, host)).toBe(c.expected);
    });
  }

  test("an .exe starts directly, with NoDefaultCurrentDirectoryInExePath for what it starts", () => {
    const started = plugin.launch(USER_EXE, ["hooks:emit", "C:\\R&D\\repo", "--agent=dev"], BASE_ENV, windows([]));
    expect(started).toEqual({ command: USER_EXE, args: ["hooks:emit", "C:\\R&D\\repo", "--agent=dev"], verbatim: false, env: { ...BASE_ENV, NoDefaultCurrentDirectoryInExePath: "1" } });
  });

  test("a .cmd shim starts through ComSpec by its absolute path, every word escaped for cmd.exe", () => {
    const shim = "C:\\Users\\me\\AppData\\Roaming\\npm\\aioson.cmd";
    const started = plugin.launch(shim, ["hooks:emit", "C:\\R&D\\repo"], BASE_ENV, windows([]));
    expect(started.command).toBe("C:\\WINDOWS\\system32\\cmd.exe");
    expect(started.args).toEqual(["/d", "/s", "/c", `"^"${shim}^" ^"hooks:emit^" ^"C:\\R^&D\\repo^""`]);
    expect(started.verbatim).toBe(true);
    expect(started.env.NoDefaultCurrentDirectoryInExePath).toBe("1");
  });

  test("a relative or missing ComSpec is replaced by the Windows folder's cmd.exe", () => {
    const envs: Env[] = [{ ComSpec: "cmd.exe", SystemRoot: "D:\\Win" }, { SystemRoot: "D:\\Win" }];
    for (const env of envs) {
      expect(plugin.launch("C:\\x\\aioson.bat", [], env, windows([])).command).toBe("D:\\Win\\System32\\cmd.exe");
    }
    expect(plugin.launch("C:\\x\\aioson.bat", [], {}, windows([])).command).toBe("C:\\Windows\\System32\\cmd.exe");
  });
});

describe("the OpenCode plugin's lookup on POSIX", () => {
  const host: Host = {
    platform: "linux", path: posix as unknown as typeof win32, home: "/home/me",
    isFile: (path) => ["/home/me/.local/bin/aioson", "/work/repo/bin/aioson", "/work/repo/aioson"].includes(path),
    real: (path) => path,
  };
  test("empty, relative and project entries are skipped; the program is started as it is", () => {
    expect(plugin.locate("aioson", "/work/repo", { PATH: "::.:bin:/work/repo/bin:/home/me/.local/bin" }, host)).toBe("/home/me/.local/bin/aioson");
    expect(plugin.launch("/home/me/.local/bin/aioson", ["hooks:emit"], { PATH: "/x" }, host)).toEqual({ command: "/home/me/.local/bin/aioson", args: ["hooks:emit"], verbatim: false, env: { PATH: "/x" } });
  });
});
