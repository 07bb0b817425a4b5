import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { parsePatchHeaders } from "../../src/emit/patch.ts";
import { projectPath } from "../../src/emit/paths.ts";
import { capHead, capTail, capWithMark, CUT_MARK } from "../../src/emit/text.ts";
import { cleanupTemp, tempDir } from "../helpers.ts";
import { afterAll } from "bun:test";

afterAll(cleanupTemp);
const same = (path: string) => path;

describe("parsePatchHeaders (spec 4.4)", () => {
  test("add, update, move and delete", () => {
    const patch = "*** Begin Patch\r\n*** Add File: a.ts\r\n+x\r\n*** Update File: b.ts\r\n*** Move to: c.ts\r\n@@\r\n*** Delete File: d.ts\r\n*** End Patch\r\n";
    expect(parsePatchHeaders(patch, same)).toEqual([
      { path: "a.ts", op: "add" },
      { path: "c.ts", op: "move", from: "b.ts" },
    ]);
  });
  test("a Move after a Delete applies to nothing", () => {
    expect(parsePatchHeaders("*** Delete File: d.ts\n*** Move to: e.ts\n", same)).toEqual([]);
  });
  test("de-duplicated by final path, at most 50", () => {
    const lines = Array.from({ length: 60 }, (_, i) => `*** Update File: f${i}.ts`);
    const entries = parsePatchHeaders([...lines, "*** Update File: f0.ts"].join("\n"), same);
    expect(entries).toHaveLength(50);
    expect(new Set(entries.map((entry) => entry.path)).size).toBe(50);
  });
  test("heredoc-wrapped patches and indented markers", () => {
    expect(parsePatchHeaders("apply_patch <<'EOF'\n*** Begin Patch\n  *** Add File: x/y.md\n*** End Patch\nEOF", same)).toEqual([{ path: "x/y.md", op: "add" }]);
  });
  test("paths go through the normaliser", () => {
    expect(parsePatchHeaders("*** Add File: ./a.ts", (p) => `N(${p})`)).toEqual([{ path: "N(./a.ts)", op: "add" }]);
  });
});

describe("projectPath (spec 4.3)", () => {
  const root = tempDir();
  test("absolute inside → relative with /", () => expect(projectPath(root, null, join(root, "src", "cart.ts"))).toBe("src/cart.ts"));
  test("relative → against cwd, else root", () => {
    expect(projectPath(root, join(root, "pkg"), "a.ts")).toBe("pkg/a.ts");
    expect(projectPath(root, null, "./a.ts")).toBe("a.ts");
    expect(projectPath(root, "sub", "a.ts")).toBe("sub/a.ts");
  });
  test("outside the root the given spelling stays", () => {
    expect(projectPath(root, null, "/etc/hosts")).toBe("/etc/hosts");
    expect(projectPath(root, null, "../x.ts")).toBe("../x.ts");
  });
  test("another OS's absolute path is never taken for a path under the root", () => {
    expect(projectPath(root, null, "C:\\Users\\dev\\acme\\src\\config.ts")).toBe("C:\\Users\\dev\\acme\\src\\config.ts");
    expect(projectPath(root, "C:\\Users\\dev", "a.ts")).toBe("a.ts");
  });
  test("a symlinked spelling of the root is recognised", () => {
    mkdirSync(join(root, "real"), { recursive: true });
    const link = join(tempDir(), "link");
    symlinkSync(root, link);
    expect(projectPath(root, null, join(link, "real"))).toBe("real");
  });
});

describe("caps", () => {
  test("marks are visible and totals bounded", () => {
    expect(capHead("abc", 5)).toBe("abc");
    const head = capHead("x".repeat(3000), 2000);
    expect(head.length).toBe(2000);
    expect(head.endsWith(CUT_MARK)).toBe(true);
    const tail = capTail(`${"a".repeat(1000)}END`, 500);
    expect(tail.length).toBe(500);
    expect(tail.startsWith("[truncated]…")).toBe(true);
    expect(tail.endsWith("END")).toBe(true);
    expect(capWithMark("y".repeat(8001), 8000)).toBe(`${"y".repeat(8000)}${CUT_MARK}`);
  });
});
