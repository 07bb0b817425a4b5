/** The help renderer (src/human/help.ts) and the width rule (src/human/style.ts), as pure functions. */
import { describe, expect, test } from "bun:test";
import { commandHelp, optionTerm, renderHelp, wrapWords } from "../../src/human/help.ts";
import { lineWidth } from "../../src/human/style.ts";

const plain = (width: number) => ({ colour: false, width });
const words = (text: string) => text.split(" ").map((word) => ({ text: word }));
const texts = (lines: { text: string }[][]) => lines.map((line) => line.map((word) => word.text).join(" "));

describe("help rendering", () => {
  test("words wrap at the width and never split; a word longer than the width has a line of its own", () => {
    expect(texts(wrapWords(words("aa bb cc dd"), 5))).toEqual(["aa bb", "cc dd"]);
    expect(texts(wrapWords(words("aa bb cc"), 4))).toEqual(["aa", "bb", "cc"]);
    expect(texts(wrapWords(words("a /a/very/long/path b"), 6))).toEqual(["a", "/a/very/long/path", "b"]);
    expect(wrapWords([], 10)).toEqual([]);
  });

  test("an option is shown as it is typed: a switch without a value, a value option with its hint", () => {
    expect(optionTerm("json", { type: "boolean", alias: "j" })).toBe("-j, --json");
    expect(optionTerm("dryRun", { type: "boolean", default: false })).toBe("--dry-run");
    expect(optionTerm("guard", { type: "boolean", default: true })).toBe("--[no-]guard");
    expect(optionTerm("no-launch", { type: "boolean", default: true })).toBe("--no-launch");
    expect(optionTerm("watch", { type: "boolean", valueHint: "seconds" })).toBe("--watch[=<seconds>]");
    expect(optionTerm("agent", { type: "string", alias: "a" })).toBe("-a, --agent=<agent>");
    expect(optionTerm("event-file", { type: "string" })).toBe("--event-file=<event-file>");
    expect(optionTerm("since", { type: "string", valueHint: "days" })).toBe("--since=<days>");
    expect(optionTerm("mode", { type: "enum", options: ["a", "b"] })).toBe("--mode=<a|b>");
    expect(optionTerm("source", { type: "string", alias: ["tool"] })).toBe("--tool, --source=<source>");
  });

  test("a command's page: description, usage, arguments, options; a default the description does not say is noted", () => {
    const blocks = commandHelp("x:y", "Do a thing", {
      dir: { type: "positional", required: false, description: "Where" },
      tool: { type: "string", default: "claude", description: "Dialect" },
      agent: { type: "string", default: "dev", description: "Agent (default dev)" },
      task: { type: "string", default: "", description: "Task" },
      json: { type: "boolean", alias: "j", default: false, description: "JSON" },
    });
    expect(renderHelp(blocks, plain(80))).toBe(
      [
        "Do a thing",
        "",
        "Usage: aioson x:y [dir] [options]",
        "",
        "Arguments:",
        "  dir  Where",
        "",
        "Options:",
        "  --tool=<tool>    Dialect (default: claude)",
        "  --agent=<agent>  Agent (default dev)",
        "  --task=<task>    Task",
        "  -j, --json       JSON",
      ].join("\n"),
    );
  });

  test("descriptions wrap under their column; each section aligns its own terms", () => {
    const text = renderHelp(
      [
        { title: "A:", rows: [{ term: "short", text: "one two three four five six seven eight nine ten" }, { term: "s", text: "x" }] },
        { title: "B:", rows: [{ term: "a-much-longer-term", text: "y" }] },
      ],
      plain(50),
    );
    expect(text).toBe(["A:", "  short  one two three four five six seven eight", "         nine ten", "  s      x", "", "B:", "  a-much-longer-term  y"].join("\n"));
    for (const line of text.split("\n")) expect(line.length).toBeLessThanOrEqual(50);
  });

  test("too narrow for a column beside the terms: each description goes under its term", () => {
    const text = renderHelp([{ title: "Options:", rows: [{ term: "--a-long-option=<value>", text: "what it does, in words" }] }], plain(30));
    expect(text).toBe(["Options:", "  --a-long-option=<value>", "      what it does, in words"].join("\n"));
  });

  test("colour adds escape codes only: the same text once they are taken out, padding counted without them", () => {
    const blocks = [{ paragraph: "Usage: aioson x [dir]" }, { title: "Options:", rows: [{ term: "--a", text: "one two three four five six", note: "(default: 1)" }, { term: "--bb", text: "x" }] }];
    const coloured = renderHelp(blocks, { colour: true, width: 40 });
    expect(coloured.replace(/\x1b\[[0-9;]*m/g, "")).toBe(renderHelp(blocks, plain(40)));
    expect(renderHelp(blocks, plain(40))).toBe(["Usage: aioson x [dir]", "", "Options:", "  --a   one two three four five six", "        (default: 1)", "  --bb  x"].join("\n"));
    expect(coloured).toContain("Usage: \x1b[36maioson x [dir]\x1b[39m");
    expect(coloured).toContain("\x1b[1mOptions:\x1b[22m");
    expect(coloured).toContain("  \x1b[36m--a\x1b[39m   one two");
    // The note's words are dimmed as one run, on the line they wrapped to.
    expect(coloured).toContain("\n        \x1b[2m(default: 1)\x1b[22m\n");
  });

  test("the width: COLUMNS when set, else the terminal's columns, else 80; nonsense widths are ignored", () => {
    expect(lineWidth({ COLUMNS: "120" }, 50)).toBe(120);
    expect(lineWidth({}, 50)).toBe(50);
    expect(lineWidth({}, undefined)).toBe(80);
    expect(lineWidth({}, 0)).toBe(80);
    expect(lineWidth({ COLUMNS: "abc" }, 50)).toBe(50);
    expect(lineWidth({ COLUMNS: "3" }, undefined)).toBe(80);
  });
});
