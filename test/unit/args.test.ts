import { describe, expect, test } from "bun:test";
import { parseArgs } from "../../src/cli/args.ts";

const DEF = {
  dir: { type: "positional", required: false },
  agent: { type: "string", default: "dev" },
  json: { type: "boolean", alias: "j" },
  guard: { type: "boolean", default: true },
  "idle-minutes": { type: "string" },
} as const;

describe("argument parsing (spec 0.1)", () => {
  test("the first positional is the directory; --key=value splits on the first = only", () => {
    const args = parseArgs([".", "--meta={\"a\":\"b=c\"}", "--agent=qa"], DEF);
    expect(args.dir).toBe(".");
    expect(args.meta).toBe('{"a":"b=c"}');
    expect(args.agent).toBe("qa");
  });

  test("--key value takes the next token unless it is a flag or the key is a switch", () => {
    expect(parseArgs(["--agent", "qa", "dir"], DEF)).toMatchObject({ agent: "qa", dir: "dir" });
    expect(parseArgs(["--agent", "--json"], DEF)).toMatchObject({ agent: true, json: true });
    expect(parseArgs(["--json", "dir"], DEF)).toMatchObject({ json: true, dir: "dir" });
    expect(parseArgs(["--once", "dir"], DEF)).toMatchObject({ once: true, dir: "dir" });
    expect(parseArgs(["--no-jev", "dir"], DEF)).toMatchObject({ dir: "dir" });
    expect(parseArgs(["--summary", "hello", "dir"], DEF)).toMatchObject({ summary: "hello", dir: "dir" });
  });

  test("defaults apply; --no-x turns a declared switch off", () => {
    expect(parseArgs([], DEF)).toMatchObject({ agent: "dev", guard: true });
    expect(parseArgs(["--no-guard"], DEF).guard).toBe(false);
  });

  test("short flags: -j is --json, -d --dry-run, -f --force", () => {
    expect(parseArgs(["-j", "-d", "-f"], DEF)).toMatchObject({ json: true, "dry-run": true, dryRun: true, force: true });
  });

  test("kebab and camel spellings both answer", () => {
    const args = parseArgs(["--idle-minutes=5", "--dry-run"], DEF);
    expect(args["idle-minutes"]).toBe("5");
    expect(args.idleMinutes).toBe("5");
    expect(args.dryRun).toBe(true);
  });

  test("everything after -- is positional", () => {
    expect(parseArgs(["--", "--json"], DEF)).toMatchObject({ dir: "--json", _: ["--json"] });
  });
});
