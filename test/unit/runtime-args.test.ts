import { describe, expect, test } from "bun:test";
import { capSummary, commaList, numberOption, positiveInt } from "../../src/runtime/args.ts";
import { parseMeta } from "../../src/runtime/emit.ts";

describe("runtime:emit option parsing", () => {
  test("--meta: object as-is, other JSON wrapped, invalid kept raw", () => {
    expect(parseMeta('{"worker":"a"}')).toEqual({ worker: "a" });
    expect(parseMeta("42")).toEqual({ value: 42 });
    expect(parseMeta("null")).toEqual({ value: null });
    expect(parseMeta("{oops")).toEqual({ raw: "{oops" });
    expect(parseMeta(null)).toEqual({});
  });

  test("comma lists are trimmed and de-duplicated; skills lose their $", () => {
    expect(commaList(" a, b ,,a ")).toEqual(["a", "b"]);
    expect(commaList("$x,y,$$x", (item) => item.replace(/^\$+/, ""))).toEqual(["x", "y"]);
    expect(commaList(true)).toEqual([]);
  });

  test("summaries are trimmed and capped at 500 characters", () => {
    expect(capSummary("  ok ")).toBe("ok");
    expect(capSummary("z".repeat(500))).toBe("z".repeat(500));
    expect(capSummary("z".repeat(501))).toBe(`${"z".repeat(497)}...`);
  });

  test("numbers: non-numeric is null; positive integers fall back", () => {
    expect(numberOption("12.5")).toBe(12.5);
    expect(numberOption("abc")).toBeNull();
    expect(numberOption("")).toBeNull();
    expect(positiveInt("0", 30_000)).toBe(30_000);
    expect(positiveInt("250", 30_000)).toBe(250);
  });
});
