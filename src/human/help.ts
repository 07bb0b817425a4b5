/**
 * `aioson --help` and `aioson <command> --help`, rendered from the command table and each command's args (citty's
 * shape, which src/cli/args.ts parses). Not citty's renderUsage: it colours whatever the stream is (a pipe got escape
 * codes), pads its columns with the escape codes counted as text, and shows a switch as `--watch=<watch>`.
 *
 * The same rules as every other human output (style.ts): plain text unless the stream is a colour terminal, and
 * then the same words with colour only. Descriptions wrap under their column at the given width.
 */
import type { ArgDef, ArgsDef } from "citty";
import { kebab } from "../cli/args.ts";
import { paint, paintCommands, type Paint } from "./style.ts";

/** One line of a section: what a person types (a flag, a command) and what it does; `note` is shown dimmed after it. */
export type HelpRow = { term: string; text: string; note?: string };
export type HelpSection = { title: string; rows: readonly HelpRow[] };
/** A help page: paragraphs (the version, the usage line, a closing remark) and sections of rows, in order. */
export type HelpBlock = { paragraph: string } | HelpSection;
export type HelpStyle = { colour: boolean; width: number };

const INDENT = "  ";
const GAP = "  ";
/** Below this many columns for the descriptions, each description goes under its term instead of beside it. */
const NARROWEST_TEXT = 24;
const UNDER_INDENT = "      ";

type Word = { text: string; paint?: Paint };

/** Greedy word wrap: words never split (a long path overflows rather than breaking), at most `width` where they fit. */
export function wrapWords(words: readonly Word[], width: number): Word[][] {
  const lines: Word[][] = [];
  let line: Word[] = [];
  let used = 0;
  for (const word of words) {
    const needed = line.length === 0 ? word.text.length : used + 1 + word.text.length;
    if (line.length > 0 && needed > width) {
      lines.push(line);
      line = [word];
      used = word.text.length;
    } else {
      line.push(word);
      used = needed;
    }
  }
  if (line.length > 0) lines.push(line);
  return lines;
}

function words(text: string, style?: Paint): Word[] {
  return text.split(" ").filter((word) => word !== "").map((word) => (style ? { text: word, paint: style } : { text: word }));
}

/** A wrapped line's words joined by spaces; on a colour terminal, each run of words in one style painted once. */
function joinWords(line: readonly Word[], colour: boolean): string {
  if (!colour) return line.map((word) => word.text).join(" ");
  const runs: Word[] = [];
  for (const word of line) {
    const last = runs.at(-1);
    if (last && last.paint === word.paint) last.text += ` ${word.text}`;
    else runs.push({ ...word });
  }
  return runs.map((run) => (run.paint ? paint(run.paint, run.text) : run.text)).join(" ");
}

function sectionLines(section: HelpSection, style: HelpStyle): string[] {
  const termWidth = Math.max(0, ...section.rows.map((row) => row.term.length));
  const column = INDENT.length + termWidth + GAP.length;
  const beside = style.width - column >= NARROWEST_TEXT;
  const lines = [style.colour ? paint("bold", section.title) : section.title];
  for (const row of section.rows) {
    const text = [...words(row.text), ...(row.note ? words(row.note, "dim") : [])];
    const term = style.colour ? paint("cyan", row.term) : row.term;
    if (!beside) {
      lines.push(`${INDENT}${term}`, ...wrapWords(text, style.width - UNDER_INDENT.length).map((line) => `${UNDER_INDENT}${joinWords(line, style.colour)}`));
      continue;
    }
    const wrapped = wrapWords(text, style.width - column);
    // The padding is counted on the plain term: escape codes take no column.
    const first = `${INDENT}${term}${" ".repeat(termWidth - row.term.length)}${GAP}${joinWords(wrapped[0] ?? [], style.colour)}`;
    lines.push(first.trimEnd(), ...wrapped.slice(1).map((line) => `${" ".repeat(column)}${joinWords(line, style.colour)}`));
  }
  return lines;
}

function isSection(block: HelpBlock): block is HelpSection {
  return "rows" in block;
}

/**
 * The page as text: blocks separated by a blank line. Each section aligns its own terms: one long name
 * (`guard:context-confidence-check`) must not push every other section's descriptions into a narrow column.
 */
export function renderHelp(blocks: readonly HelpBlock[], style: HelpStyle): string {
  return blocks
    .map((block) => {
      if (isSection(block)) return sectionLines(block, style).join("\n");
      const lines = wrapWords(words(block.paragraph), style.width).map((line) => joinWords(line, false));
      return lines.map((line) => (style.colour ? paintCommands(line) : line)).join("\n");
    })
    .join("\n\n");
}

function valueHint(name: string, arg: ArgDef): string {
  if (arg.valueHint) return arg.valueHint;
  if (arg.type === "enum" && arg.options && arg.options.length > 0) return arg.options.join("|");
  return kebab(name);
}

/**
 * How an option is typed: `-j, --json`; `--[no-]guard` for a switch that is on unless turned off; `--agent=<agent>`
 * for an option that takes a value; `--watch[=<seconds>]` for a switch that may be given one (a boolean with a
 * `valueHint`).
 */
export function optionTerm(name: string, arg: ArgDef): string {
  const flag = kebab(name);
  const alias = "alias" in arg ? arg.alias : undefined;
  const aliases = alias === undefined ? [] : Array.isArray(alias) ? alias : [alias];
  const spelled = aliases.map((alias) => (alias.length === 1 ? `-${alias}` : `--${alias}`));
  if (arg.type === "boolean") {
    const main = arg.default === true && !flag.startsWith("no-") ? `--[no-]${flag}` : `--${flag}`;
    return [...spelled, `${main}${arg.valueHint ? `[=<${arg.valueHint}>]` : ""}`].join(", ");
  }
  return [...spelled, `--${flag}=<${valueHint(name, arg)}>`].join(", ");
}

/** A value's default, when the description does not already say it (most of them do, in their own words). */
function defaultNote(arg: ArgDef): string | undefined {
  if (arg.type === "boolean" || arg.default === undefined || arg.default === "") return undefined;
  if (/\bdefault\b/i.test(arg.description ?? "")) return undefined;
  return `(default: ${String(arg.default)})`;
}

/** A command's page: what it does, how it is called, its arguments and its options. */
export function commandHelp(name: string, description: string, args: ArgsDef): HelpBlock[] {
  const entries = Object.entries(args);
  const positionals = entries.filter(([, arg]) => arg.type === "positional");
  const options = entries.filter(([, arg]) => arg.type !== "positional");
  const usage = [
    `Usage: aioson ${name}`,
    ...positionals.map(([key, arg]) => (arg.required === true ? `<${kebab(key)}>` : `[${kebab(key)}]`)),
    ...(options.length > 0 ? ["[options]"] : []),
  ].join(" ");
  const blocks: HelpBlock[] = [{ paragraph: description }, { paragraph: usage }];
  const row = (arg: ArgDef, term: string): HelpRow => {
    const note = defaultNote(arg);
    return note ? { term, text: arg.description ?? "", note } : { term, text: arg.description ?? "" };
  };
  if (positionals.length > 0) blocks.push({ title: "Arguments:", rows: positionals.map(([key, arg]) => row(arg, kebab(key))) });
  if (options.length > 0) blocks.push({ title: "Options:", rows: options.map(([key, arg]) => row(arg, optionTerm(key, arg))) });
  return blocks;
}
