import { describe, expect, test } from "bun:test";
import { makeLookup, matches, matchPath, norm } from "../../src/brief/match.ts";
import { semanticTerms } from "../../src/brief/semantic.ts";
import { checkDialogs } from "../../src/guard/checkers/dialogs.ts";
import { classifyIdentifier, checkNaming, identifierWords } from "../../src/guard/checkers/naming.ts";
import { checkFunctionSize, isSizeExempt } from "../../src/guard/checkers/size.ts";
import type { CheckFile, CheckOptions } from "../../src/guard/checkers/types.ts";
import { ruleConstraints } from "../../src/guard/constraints.ts";
import { judgedKind, surfaceKinds } from "../../src/guard/kinds.ts";
import { namedCode } from "../../src/guard/markdown.ts";
import { afterContent, pendingWrite } from "../../src/guard/pending.ts";
import { deriveQuery } from "../../src/guard/pipeline.ts";
import { parseFrontmatter, parseList } from "../../src/rules/frontmatter.ts";

const OPTIONS: CheckOptions = { uncapped: false, maxFileLines: 500, maxFunctionLines: 60 };
const file = (rel: string, text: string): CheckFile => ({ rel, lines: text.split("\n"), reportFile: rel });

describe("frontmatter", () => {
  test("flat keys, first colon, quotes stripped; lists in both spellings", () => {
    const fm = parseFrontmatter('---\ndescription: "A: b"\ntriggers: [a, "b c", \'d\']\npaths: src/**, lib/**\n---\nbody');
    expect(fm.data.description).toBe("A: b");
    expect(parseList(fm.data.triggers)).toEqual(["a", "b c", "d"]);
    expect(parseList(fm.data.paths)).toEqual(["src/**", "lib/**"]);
    expect(parseList("[]")).toEqual([]);
    expect(fm.body).toBe("body");
  });
});

describe("matching", () => {
  test("norm deletes `_`, folds accents, keeps / and -", () => {
    expect(norm("create_workspace_table Ação src/a-b.js")).toBe("createworkspacetable acao src/a-b js");
  });

  test("short needles need a whole word; long ones a substring or two words", () => {
    const lookup = makeLookup(norm("function build() require crypto"));
    expect(matches(lookup, ["ui", "build", "crypto hash", "crypto require"])).toEqual(["build", "crypto require"]);
    expect(matches(makeLookup(norm("the ui layer")), ["ui"])).toEqual(["ui"]);
    expect(matches(makeLookup(norm("testing forms")), ["test", "form"])).toEqual(["test", "form"]);
  });

  test("matchPath: prefix/**, plain prefix, globs anchored", () => {
    expect(matchPath("src/a/b.js", "src/**")).toBe(true);
    expect(matchPath("src", "src/**")).toBe(true);
    expect(matchPath("srcx/a.js", "src/**")).toBe(false);
    expect(matchPath("./src/api/x.js", "src/api")).toBe(true);
    expect(matchPath("database/migrations/x.php", "**/migrations/**")).toBe(true);
    expect(matchPath("a/b/c.ts", "a/*.ts")).toBe(false);
    expect(matchPath("a\\b.ts", "a/*.ts")).toBe(true);
  });

  test("matchPath: braces and classes in a glob; dot-files match like other names", () => {
    expect(matchPath("src/ui/Badge.tsx", "src/**/*.{ts,tsx}")).toBe(true);
    expect(matchPath("src/ui/badge.css", "src/**/*.{ts,tsx}")).toBe(false);
    expect(matchPath("src/.eslintrc.ts", "src/*.{ts,js}")).toBe(true);
    expect(matchPath("src/v2/x.ts", "src/v[0-9]/*.ts")).toBe(true);
    expect(matchPath("src/a.ts", "src/{unclosed*")).toBe(false);
  });

  test("semantic terms skip stop words and short words, add singulars and synonyms", () => {
    expect(semanticTerms(["create the ui for consultas in pastas"], "")).toEqual(["ui", "consultas", "consulta", "query", "queries", "pastas", "pasta", "folders", "directories"]);
    expect(semanticTerms(["orders page"], "laravel")).toContain("laravel");
  });
});

describe("checkers", () => {
  test("identifier words and classification", () => {
    expect(identifierWords("servicoCliente")).toEqual(["servico", "cliente"]);
    expect(identifierWords("XMLHttpRequest2_fooBar")).toEqual(["xml", "http", "request", "foo", "bar"]);
    expect(classifyIdentifier("salvarPedido")?.severity).toBe("HIGH");
    expect(classifyIdentifier("validacaoX")?.severity).toBe("MED");
    expect(classifyIdentifier("nomeDoCliente")?.severity).toBe("HIGH");
    expect(classifyIdentifier("totalDaVenda")?.severity).toBe("MED");
    expect(classifyIdentifier("departmentManager")).toBeNull();
    expect(classifyIdentifier("pasta")).toBeNull();
  });

  test("naming skips strings and comments and reports directories, file name and identifiers", () => {
    const findings = checkNaming(file("src/modulos/servicoCliente.js", '// function criarX() {}\nconst label = "const salvarY = 1";\nexport class GerenciadorPedidos {}\n'), OPTIONS);
    expect(findings.map((f) => `${f.severity} ${f.summary}`)).toEqual([
      'HIGH non-English directory "modulos"',
      'HIGH non-English filename "servicoCliente"',
      'MED non-English identifier "GerenciadorPedidos"',
    ]);
    expect(findings[0]?.scope).toBe("dir:modulos");
  });

  test("native dialogs: calls only, not methods, strings or own declarations", () => {
    expect(checkDialogs(file("a.js", "if (window.confirm('x')) go();\nalert(1);")).map((f) => f.token)).toEqual(["confirm", "alert"]);
    expect(checkDialogs(file("a.js", "modal.confirm(); $.alert(); const s = 'alert(1)';\n// alert(2)\nconst r = /alert(/;"))).toEqual([]);
    expect(checkDialogs(file("a.js", "function confirm(msg) { return true; }\nconfirm('x');"))).toEqual([]);
    expect(checkDialogs(file("a.py", "alert(1)"))).toEqual([]);
  });

  test("function size: braces inside strings do not end a body; indentation languages", () => {
    const body = Array.from({ length: 61 }, (_, i) => `  const s${i} = "}";`).join("\n");
    expect(checkFunctionSize(file("a.ts", `export const run = async (x: number) => {\n${body}\n};`), OPTIONS).map((f) => f.token)).toEqual(["run"]);
    const py = `def handler(event):\n${Array.from({ length: 61 }, (_, i) => `    x${i} = ${i}`).join("\n")}\n\ndef other():\n    pass\n`;
    expect(checkFunctionSize(file("a.py", py), OPTIONS).map((f) => f.summary)).toEqual(["`handler` has 61 logic lines (limit 60)"]);
    expect(isSizeExempt("src/locales/pt-BR.ts")).toBe(true);
    expect(isSizeExempt("src/routes/index.ts")).toBe(true);
    expect(isSizeExempt("src/server.ts")).toBe(false);
  });
});

describe("surfaces and kinds", () => {
  test("UI surface table", () => {
    expect(surfaceKinds("app/cadastro.html", "")).toEqual(["ui"]);
    expect(surfaceKinds("docs/briefing.md", "")).toEqual(["ui"]);
    expect(surfaceKinds("src/ui/form.js", "document.querySelector('#cpf').addEventListener('x', f)")).toEqual(["ui"]);
    expect(surfaceKinds("src/lib/telemetry.js", "const r = /cpf|mask|form/;")).toEqual([]);
    expect(surfaceKinds("brains/_index.json", "<div>")).toEqual([]);
  });

  test("what is judged", () => {
    expect(judgedKind("src/a.ts")).toBe("code");
    expect(judgedKind("node_modules/x/a.js")).toBeNull();
    expect(judgedKind(".aioson/context/plan.md")).toBe("markdown");
    expect(judgedKind(".aioson/rules/x.md")).toBeNull();
    expect(judgedKind("docs/x.md")).toBeNull();
    expect(judgedKind("README")).toBeNull();
  });

  test("a plan names cited paths, requested identifiers and code blocks", () => {
    const files = namedCode("/nonexistent-root", "See `src/a/servico.ts:12`, src/b/c.py, and `criarCliente()`, `ClienteServico`, `plain`.\n~~~php\n$nome = 1;\n~~~\n", false);
    expect(files.map((f) => f.rel)).toEqual(["src/a/servico.ts", "src/b/c.py", "index.php", "index.js"]);
    expect(files.find((f) => f.rel === "index.js")?.lines).toEqual(["function criarCliente() {}", "class ClienteServico {}"]);
  });
});

describe("pending write", () => {
  test("Edit applies the first occurrence, replace_all every one; missing anchor is unknown", () => {
    const write = (input: Record<string, unknown>) => pendingWrite({ tool_name: "Edit", tool_input: { file_path: "a.js", ...input } });
    const once = write({ old_string: "a", new_string: "b" });
    const all = write({ old_string: "a", new_string: "b", replace_all: true });
    const missing = write({ old_string: "z", new_string: "b" });
    if (!once || !all || !missing) throw new Error("expected writes");
    expect(afterContent(once, "a a")).toBe("b a");
    expect(afterContent(all, "a a")).toBe("b b");
    expect(afterContent(missing, "a a")).toBeNull();
    expect(afterContent(once, null)).toBeNull();
  });

  test("the query is the file's own name and text", () => {
    expect(deriveQuery("/x/2026_06_18_create-workspace.table.php", "body")).toBe("2026 06 18 create workspace.table body");
  });
});

describe("rule constraints", () => {
  test("required sections, directives, forbidden without repeats, stack ranking", () => {
    const text =
      "---\nx: y\n---\n## Required behavior\n- Name things well.\n- Do not repeat.\n- For Laravel, use Eloquent.\n- For React, use hooks.\n- For non-React stacks, use stores.\n## Notes\n- Plain note.\n- Use tokens.\n- Never log secrets.\n- Logs must not expose tokens.\n";
    expect(ruleConstraints(text, "React")).toEqual({
      constraints: ["For React, use hooks.", "Name things well.", "Do not repeat.", "Use tokens.", "Never log secrets."],
      forbidden: [],
      withheld: 0,
    });
    expect(ruleConstraints(text, "").constraints).toContain("For Laravel, use Eloquent.");
    expect(ruleConstraints(text, "Laravel").constraints.slice(0, 2)).toEqual(["For Laravel, use Eloquent.", "Name things well."]);
    expect(ruleConstraints(text, "Laravel").constraints).toContain("For non-React stacks, use stores.");
  });
});
