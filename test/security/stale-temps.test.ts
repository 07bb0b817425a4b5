/**
 * Issue 11 item 4/5: a process killed between creating its temp file and the rename leaves
 * `.<name>.aioson-tmp-<pid>-…` next to the file; the next rewrite of that file removes the stale ones of aioson's
 * own naming (writer gone, or older than the grace period), and nothing else.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTemp, runAioson } from "../helpers.ts";
import { hostileProject, outsideState, runtimeOf, WRITE_PAYLOAD } from "./paths-helpers.ts";

afterAll(cleanupTemp);

/** A pid that is certainly not running: a child that has already exited. */
function deadPid(): number {
  const child = Bun.spawnSync(["true"]);
  return child.pid;
}

describe("stale temp files", () => {
  test("next to state.json: a dead writer's temp files go, a live writer's recent one and other names stay", () => {
    const h = hostileProject();
    const first = runAioson(["hooks:emit", h.project, "--json"], { stdin: JSON.stringify(WRITE_PAYLOAD), home: h.home });
    const dir = join(runtimeOf(h.project), "live", (first.json as { sessionKey: string }).sessionKey);
    const dead = deadPid();
    const stale = [`.state.json.aioson-tmp-${dead}-abc123`, `.state.json.aioson-tmp-${dead}-zz`];
    const live = `.state.json.aioson-tmp-${process.pid}-fresh`;
    const old = `.state.json.aioson-tmp-${process.pid}-old`;
    const others = [".state.json.tmp", "state.json.aioson-tmp-1-x", `.events.ndjson.aioson-tmp-${dead}-x`, "notes.md"];
    for (const name of [...stale, live, old, ...others]) writeFileSync(join(dir, name), "partial");
    const hourAgo = Date.now() / 1000 - 3600;
    utimesSync(join(dir, old), hourAgo, hourAgo);
    runAioson(["hooks:emit", h.project], { stdin: JSON.stringify(WRITE_PAYLOAD), home: h.home });
    const left = readdirSync(dir).sort();
    for (const name of stale) expect(left).not.toContain(name);
    expect(left).not.toContain(old);
    expect(left).toContain(live);
    for (const name of others) expect(left).toContain(name);
    expect(left.filter((name) => name.includes(".aioson-tmp-") && name.startsWith(".state.json"))).toEqual([live]);
  });

  test("a stale temp that is a symlink is removed as a link; its target outside is untouched", () => {
    const h = hostileProject();
    const first = runAioson(["hooks:emit", h.project, "--json"], { stdin: JSON.stringify(WRITE_PAYLOAD), home: h.home });
    const dir = join(runtimeOf(h.project), "live", (first.json as { sessionKey: string }).sessionKey);
    const name = `.state.json.aioson-tmp-${deadPid()}-link`;
    symlinkSync(join(h.home, ".bashrc"), join(dir, name));
    const before = outsideState(h);
    runAioson(["hooks:emit", h.project], { stdin: JSON.stringify(WRITE_PAYLOAD), home: h.home });
    expect(existsSync(join(dir, name))).toBe(false);
    expect(outsideState(h)).toEqual(before);
  });

  test("next to a pointer", () => {
    const h = hostileProject();
    runAioson(["live:start", h.project, "--tool=claude", "--no-launch"], { home: h.home });
    const dir = join(runtimeOf(h.project), ".sessions");
    const name = `.@product.json.aioson-tmp-${deadPid()}-k`;
    writeFileSync(join(dir, name), "{");
    runAioson(["live:start", h.project, "--tool=codex", "--no-launch"], { home: h.home });
    expect(readdirSync(dir)).not.toContain(name);
  });
});
