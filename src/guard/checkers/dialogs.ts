import { neutralize } from "./code-text.ts";
import { extensionOf, type CheckFile, type Finding } from "./types.ts";

/** Checker `no-native-dialogs` (spec 6.9). */

const DIALOG_EXTS = new Set([".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".vue", ".svelte", ".html"]);
const CALL = /(?:window\.)?(alert|confirm|prompt)\s*\(/g;
const MENTION = /(?:alert|confirm|prompt)\s*\(/;
const COMMENT_LINE = /^\s*(\/\/|\*|<!--)/;

function ownDeclarations(code: string): Set<string> {
  const own = new Set<string>();
  for (const name of ["alert", "confirm", "prompt"]) {
    if (new RegExp(`\\b(?:function\\s+${name}\\b|(?:const|let|var)\\s+${name}\\b)`).test(code)) own.add(name);
  }
  return own;
}

export function checkDialogs(file: CheckFile): Finding[] {
  if (!DIALOG_EXTS.has(extensionOf(file.rel))) return [];
  const text = file.lines.join("\n");
  if (!MENTION.test(text)) return [];
  const code = neutralize(text);
  const own = ownDeclarations(code);
  const out: Finding[] = [];
  code.split("\n").forEach((line, index) => {
    if (COMMENT_LINE.test(line)) return;
    CALL.lastIndex = 0;
    for (let match = CALL.exec(line); match; match = CALL.exec(line)) {
      const name = match[1] as string;
      // Not preceded by a word character, `.` or `$` (a method or an identifier ending in the name).
      if (own.has(name) || /[\w.$]/.test(line[match.index - 1] ?? "")) continue;
      out.push({
        category: "NATIVE_DIALOG",
        severity: "HIGH",
        message: `native \`${name}()\` dialog — build it from the project's design system instead`,
        summary: `native \`${name}()\` dialog`,
        file: file.reportFile,
        line: index + 1,
        token: name,
        scope: "file",
        snippet: (file.lines[index] ?? "").trim().slice(0, 200),
      });
    }
  });
  return out;
}
