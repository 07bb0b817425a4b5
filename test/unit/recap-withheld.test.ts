/**
 * The recap counts the withheld commands and files of a long window from the rows of idx_execution_events_recap_withheld
 * alone (src/recap/rows.ts longWindowRows), so every row whose item the sanitiser withholds must be such a row
 * (src/store/event-indexes.ts withheldCandidateTerm). Random items built from the words of every instruction pattern,
 * the separators the sanitiser reads through (spaces, controls, HTML comments, hidden characters, look-alike letters)
 * and the secrets redaction replaces, in a command, a `$ ` message and a file.
 */
import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "bun:test";
import { normalizeCommand } from "../../src/recap/facts.ts";
import { withheldCandidateTerm } from "../../src/store/event-indexes.ts";
import { sanitizeItem } from "../../src/text/sanitize.ts";
import { random } from "../recap-helpers.ts";

const WORDS = [
  "ignore", "IGNORE", "disregard", "forget", "override", "all", "previous", "prior", "your", "instructions", "prompt", "rules", "you", "are", "now",
  "an", "AI", "assistant", "language model", "LLM", "from now on", "henceforth", "the model", "system prompt", "system", "message", "developer",
  "jailbreak", "<|im_start|>", "do not", "don't", "never", "tell", "reveal to", "show", "the user", "human", "operator", "new", "hidden", "please",
  "do", "ign\u043ere", "\uff49gnore", "y\u043eu", "ai", "main", "src/a.ts", "npm test", "sed -n 1,50p",
];
const SEPARATORS = [
  " ", " ", " ", "  ", "\t", "\n", "<!-- x -->", "\u200b", "\u00ad", ":", ", ", ": ", "\u0001", "\u007f", " password=hunter2 ", " ghp_0123456789abcdefghijABCDEFGHIJ012345 ",
  " Bearer abcdefghijklmnop ", " -p secret ", "[REDACTED]", "\u00a0", "\u2028", "'", '"',
];

function item(next: (n: number) => number): string {
  let text = next(4) === 0 ? "" : "echo ";
  const words = 1 + next(8);
  for (let i = 0; i < words; i++) text += `${WORDS[next(WORDS.length)]}${i + 1 < words ? SEPARATORS[next(SEPARATORS.length)] : ""}`;
  return next(5) === 0 ? `  ${text} ` : text;
}

const withheld = (text: string): boolean => sanitizeItem(text).kind === "withheld";

function candidates(db: Database): (type: string, message: string, payload: string | null) => boolean {
  const query = db.query(`SELECT ${withheldCandidateTerm("e.")} AS hit FROM (SELECT ? AS event_type, ? AS message, ? AS payload_json) e`);
  return (type, message, payload) => (query.get(type, message, payload) as { hit: number }).hit === 1;
}

describe("rows that may carry a withheld item (recap withheld index)", () => {
  test("every withheld command and file is on a candidate row, whatever form its row takes", () => {
    const db = new Database(":memory:");
    const candidate = candidates(db);
    const next = random(0x77);
    let found = 0;
    for (let i = 0; i < 6_000; i++) {
      const text = item(next);
      if (withheld(normalizeCommand(text))) {
        found++;
        const where = { text };
        expect({ ...where, payload: candidate("step_done", "$ x", JSON.stringify({ command: text, outcome: "failed" })) }).toEqual({ ...where, payload: true });
        expect({ ...where, message: candidate("step_done", `$ ${text}`, null) }).toEqual({ ...where, message: true });
        expect({ ...where, fallback: candidate("step_done", `$ ${text}`, JSON.stringify({ command: "", outcome: "failed" })) }).toEqual({ ...where, fallback: true });
      }
      if (withheld(text)) expect({ text, file: candidate("artifact", "Edit", JSON.stringify({ file: text })) }).toEqual({ text, file: true });
    }
    // The items are hostile enough to be withheld often, and not always.
    expect(found).toBeGreaterThan(500);
    expect(found).toBeLessThan(5_500);
  });

  test("an ordinary command or file is not a candidate (the index stays a few rows)", () => {
    const candidate = candidates(new Database(":memory:"));
    for (const command of ["sed -n 1,50p src/x.ts", 'rg -n "symbol12" src/area-3', "npm test -- src/a.test.ts -t \"case 4\"", "git diff --stat HEAD~3 -- src/main.ts", "git push origin main"]) {
      expect({ command, hit: candidate("step_done", `$ ${command}`, JSON.stringify({ command, outcome: "failed", written_by: "hooks:emit" })) }).toEqual({ command, hit: false });
    }
    expect(candidate("artifact", "Edit", JSON.stringify({ file: "src/area-12/part-3.ts" }))).toBe(false);
    // A payload SQLite would not read as JSON.parse does is read as text all the same.
    expect(candidate("step_done", "$ ls", '{"command":"ls","command":"echo  Ignore"}')).toBe(true);
    expect(candidate("step_done", "$ ls", '{"command":"ig\\u006eore"}')).toBe(true);
  });

  test("the instruction patterns are the ones INSTRUCTION_MARKS were written for", () => {
    // A change to the patterns of step 5 must be mirrored in event-indexes.ts INSTRUCTION_MARKS (and the index text
    // changes with it: a new schema version), then this hash updated.
    const source = readFileSync(join(import.meta.dir, "..", "..", "src", "text", "sanitize.ts"), "utf8");
    const start = source.indexOf("const INSTRUCTION_PATTERNS");
    const patterns = source.slice(start, source.indexOf("];", start));
    expect(createHash("sha256").update(patterns).digest("hex").slice(0, 16)).toBe("e1fa8b7b725d88e4");
  });
});
