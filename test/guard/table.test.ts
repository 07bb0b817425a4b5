import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { cleanupTemp } from "../helpers.ts";
import { edit, fixtureProject, guard, write } from "./fixture.ts";

/**
 * A table of pending writes through the real binary against the fixture project: each row lists
 * exactly the rules the injection must carry, in order (empty = the wire payload is `{}`).
 */

let project = "";
beforeAll(() => {
  project = fixtureProject();
});
afterAll(cleanupTemp);

const R = (name: string) => `.aioson/rules/${name}.md`;
const DB = R("db-naming");
const FORM = R("form-fields-masks-and-validation");
const UI = R("ui-components");
const NAMING = R("source-code-language-convention");
const DIALOGS = R("no-native-dialogs");
const SIZE = R("code-size");
const THIN = R("thin-controllers");
const HANDOFF = R("agent-handoff");
const STATUS = R("status-change-confirmation");
const API = R("api-errors");
const ROADMAP = R("roadmap-planning");
const MONEY = R("money-values");

const longFunction = ["export function buildReport(rows) {", ...Array.from({ length: 40 }, (_, i) => `  const v${i} = rows[${i}] ?? ${i};`), "  return rows;", "}"].join("\n");
const longFile = Array.from({ length: 130 }, (_, i) => `export const limit${i} = ${i};`).join("\n");

type Row = {
  name: string;
  event: (root: string) => Record<string, unknown>;
  rules: string[];
  args?: string[];
  env?: Record<string, string>;
  contains?: string[];
  excludes?: string[];
};

const abs = (root: string, rel: string) => join(root, ...rel.split("/"));

const ROWS: Row[] = [
  {
    name: "a migration creating the workspace table gets the db naming rule only",
    event: (r) => write(abs(r, "database/migrations/2026_06_18_create_workspace_table.php"), "<?php\nSchema::create('workspaces', function (Blueprint $table) {\n  $table->id();\n  $table->foreignId('project_id');\n});\n"),
    rules: [DB],
    contains: ["Rule .aioson/rules/db-naming.md:", "the `project` table is `projects`"],
    excludes: ["technical English", "controllers and route handlers thin", UI],
  },
  { name: "a pure math helper is silent", event: (r) => write(abs(r, "src/math/sum.js"), "export function sum(a, b) {\n  return a + b;\n}\n"), rules: [] },
  { name: "a Read of the migration path is silent", event: (r) => ({ tool_name: "Read", tool_input: { file_path: abs(r, "database/migrations/2026_06_18_create_workspace_table.php") } }), rules: [] },
  { name: "a Bash call is silent", event: () => ({ tool_name: "Bash", tool_input: { command: "php artisan make:migration create_workspace_table" } }), rules: [] },
  {
    name: "the short alias `ui` never matches inside build/require",
    event: (r) => write(abs(r, "src/server/auth.js"), 'const crypto = require("crypto");\nfunction build() {\n  return crypto.randomUUID();\n}\n'),
    rules: [],
  },
  { name: "a generic trigger with a broad path and no opt-in stays silent", event: (r) => write(abs(r, "src/util/helper.js"), "export function helper(value) {\n  return value;\n}\n"), rules: [] },
  {
    name: "a guard:true rule scoped to agent templates injects for a template edit",
    event: (r) => edit(abs(r, "template/.aioson/agents/dev.md"), "aioson context:select", "aioson context:brief"),
    rules: [HANDOFF],
    contains: ["\n- Do NOT continue into the next agent work.\n"],
    excludes: ["(forbidden) Do NOT"],
  },
  {
    name: "the same rule stays silent for CLI source that echoes its triggers",
    event: (r) => edit(abs(r, "src/commands/hooks-install.js"), "// context:select", "// context:brief handoff: agent work"),
    rules: [],
  },
  {
    name: "a file about forms is not a form: telemetry source full of form words",
    event: (r) => write(abs(r, "src/lib/telemetry.js"), "const FORM_FIELDS = /cpf|mask|form/;\nexport function trackFormValidation(input) {\n  return FORM_FIELDS.test(input);\n}\n"),
    rules: [],
  },
  {
    name: "a file about forms is not a form: CLI source named form-command",
    event: (r) => write(abs(r, "src/cli/form-command.ts"), "export function formCommand(input: string): string {\n  return `form validation for ${input}`;\n}\n"),
    rules: [],
  },
  {
    name: "a file about forms is not a form: JSON data",
    event: (r) => write(abs(r, "data/forms.json"), '{ "form": "signup", "fields": ["cpf", "phone mask"], "validation": true }\n'),
    rules: [],
  },
  {
    name: "a file about forms is not a form: YAML config",
    event: (r) => write(abs(r, "config/form-validation.yml"), "form:\n  input: cpf\n  validation: strict\n"),
    rules: [],
  },
  {
    name: "an HTML form is a form",
    event: (r) => write(abs(r, "app/cadastro/form.html"), '<form id="cadastro">\n  <input id="cpf" name="cpf">\n</form>\n'),
    rules: [FORM],
    contains: ["MaskedInput", "\n- Do not clear a field the user is typing in."],
    excludes: ["(forbidden)"],
  },
  {
    name: "a script touching the DOM is a form surface",
    event: (r) => write(abs(r, "src/ui/mascara.js"), "document.querySelector('#cpf').addEventListener('input', applyMask);\n"),
    rules: [FORM],
  },
  {
    name: "a CSS file for the form is a UI surface",
    event: (r) => write(abs(r, "styles/form.css"), ".form-field input.cpf { border: 1px solid; }\n"),
    rules: [FORM],
  },
  {
    name: "known quirk: a TypeScript generic reads as a tag",
    event: (r) => write(abs(r, "src/lib/form-store.ts"), 'export const fields: Array<string> = ["cpf"];\n'),
    rules: [FORM],
  },
  {
    name: "a path-scoped domain rule stays silent outside its paths",
    event: (r) => write(abs(r, "src/notes/todo.js"), "// TODO: workspace project migration notes\nexport const notes = ['workspace', 'project', 'migration'];\n"),
    rules: [],
  },
  {
    name: "a planner's plan citing a Portuguese file name gets the naming finding",
    event: (r) => write(abs(r, ".aioson/context/implementation-plan-x.md"), "# Plan\n\n1. Add `src/modulos/clientes/servicoCliente.js` with the customer lookup.\n"),
    args: ["--agent=planner"],
    rules: [NAMING],
    contains: [
      'Rule .aioson/rules/source-code-language-convention.md — source-code-language found a new violation in implementation-plan-x.md:\n- HIGH non-English filename "servicoCliente" — src/modulos/clientes/servicoCliente.js\n- Write identifiers, files and folders in technical English, even when the product speaks Portuguese.\n- Keep user-facing copy in the locale files, never in identifiers.',
    ],
    excludes: ['directory "modulos"', "Report a legacy Portuguese name"],
  },
  {
    name: "a plan citing a requested identifier is judged",
    event: (r) => write(abs(r, ".aioson/context/spec-checkout.md"), "# Spec\n\nCall `calcularFrete()` from the checkout.\n"),
    rules: [NAMING],
    contains: ['- HIGH non-English identifier "calcularFrete"\n'],
  },
  {
    name: "a plan's code block is judged",
    event: (r) => write(abs(r, ".aioson/context/prd-billing.md"), "# PRD\n\n```ts\nexport function gerarFatura(order: Order) {}\n```\n"),
    rules: [NAMING],
    contains: ['non-English identifier "gerarFatura"'],
  },
  {
    name: "an edit adding an unrelated English line to a legacy file replays no old debt",
    event: (r) => edit(abs(r, "src/legacy/clientes.js"), "  return { ...dados", "  // keep the payload shape stable\n  return { ...dados"),
    rules: [],
  },
  {
    name: "an edit adding a Portuguese function names only the new one",
    event: (r) => edit(abs(r, "src/legacy/clientes.js"), "export function criarCliente(dados) {", "export function salvarPedido() {}\n\nexport function criarCliente(dados) {"),
    rules: [NAMING],
    contains: ['HIGH non-English identifier "salvarPedido"'],
    excludes: ["criarCliente"],
  },
  {
    name: "a MultiEdit adding a Portuguese function is judged on the combined result",
    event: (r) => ({
      tool_name: "MultiEdit",
      tool_input: {
        file_path: abs(r, "src/legacy/clientes.js"),
        edits: [
          { old_string: "// Legacy customer module", new_string: "// Legacy customer module (orders too)" },
          { old_string: "export function criarCliente", new_string: "export function atualizarPedido() {}\nexport function criarCliente" },
        ],
      },
    }),
    rules: [NAMING],
    contains: ['"atualizarPedido"'],
  },
  {
    name: "an Edit whose anchor is missing has no known result: no violation path",
    event: (r) => edit(abs(r, "src/legacy/clientes.js"), "this text is not in the file", "export function removerItem() {}"),
    rules: [],
  },
  {
    name: "docs outside .aioson/ are never judged",
    event: (r) => write(abs(r, "docs/guide.md"), "Never name a file like `src/modulos/clientes/servicoCliente.js`.\n"),
    rules: [],
  },
  {
    name: "governance files are never judged",
    event: (r) => write(abs(r, ".aioson/rules/naming-examples.md"), "Bad: `src/modulos/clientes/servicoCliente.js`.\n"),
    rules: [],
  },
  {
    name: "a plan citing a path that already exists is a reference, not a decision",
    event: (r) => write(abs(r, ".aioson/context/implementation-plan-pay.md"), "# Plan\n\nExtend `src/services/servicoPagamento.js` with refunds.\n"),
    rules: [],
  },
  { name: "a MED-only finding never injects", event: (r) => write(abs(r, "src/checks.js"), "export function validacaoX() {\n  return true;\n}\n"), rules: [] },
  {
    name: "accepted debt in the baseline stays accepted",
    event: (r) => write(abs(r, "src/modulos/sales.js"), "export const total = 1;\n"),
    rules: [],
  },
  {
    name: "a new Portuguese file name inside accepted debt is still reported, without the accepted directory",
    event: (r) => write(abs(r, "src/modulos/ajuda.js"), "export const total = 1;\n"),
    rules: [NAMING],
    contains: ['HIGH non-English filename "ajuda"'],
    excludes: ['directory "modulos"'],
  },
  {
    name: "a native confirm() in a UI script: the component rule by vocabulary and the dialog rule by violation",
    event: (r) => write(abs(r, "src/ui/delete-button.js"), 'document.querySelector("#delete-button").addEventListener("click", () => {\n  if (confirm("Delete?")) remove();\n});\n'),
    rules: [UI, DIALOGS],
    contains: ["Rule .aioson/rules/no-native-dialogs.md — no-native-dialogs found a new violation in delete-button.js:\n- HIGH native `confirm()` dialog\n- Use `ConfirmDialog`"],
  },
  {
    name: "dialog calls inside strings and comments are not calls",
    event: (r) => write(abs(r, "src/lib/notice.js"), '// never call alert() here\nexport const message = "alert(1)";\n'),
    rules: [],
  },
  {
    name: "a long function is a function-size violation",
    event: (r) => write(abs(r, "src/services/report-builder.js"), longFunction),
    rules: [SIZE],
    contains: ["- HIGH `buildReport` has 41 logic lines (limit 30)"],
  },
  {
    name: "a long file is a file-size violation",
    event: (r) => write(abs(r, "src/services/limits.js"), longFile),
    rules: [SIZE],
    contains: ["- HIGH 130 logic lines (limit 120)", "- Keep files under 120 logic lines"],
  },
  {
    name: "test files are exempt from size limits",
    event: (r) => write(abs(r, "src/services/__tests__/limits.test.js"), longFile),
    rules: [],
  },
  {
    name: "a path-scoped API rule injects inside its paths",
    event: (r) => write(abs(r, "src/api/orders.js"), "// Build the error response for a failed order.\nexport function toProblem(error) {\n  return { status: 500, title: error.name };\n}\n"),
    rules: [API],
  },
  {
    name: "the same API wording outside its paths is silent",
    event: (r) => write(abs(r, "src/jobs/retry.js"), "// Build the error response for a failed order.\nexport function toProblem(error) {\n  return { status: 500, title: error.name };\n}\n"),
    rules: [],
  },
  {
    name: "the file name alone can carry the signal",
    event: (r) => write(abs(r, "src/api/error-response.js"), ""),
    rules: [API],
  },
  {
    name: "a domain rule without paths injects on its entities",
    event: (r) => write(abs(r, "src/services/pricing.js"), "export function totalPrice(items) {\n  return items.reduce((sum, item) => sum + item.price * item.amount, 0);\n}\n"),
    rules: [MONEY],
    contains: ["- Keep money as integer cents"],
  },
  {
    name: "a TSX status badge gets the status rule",
    event: (r) => write(abs(r, "src/components/OrderStatus.tsx"), "export function OrderStatus({ order }) {\n  return <StatusBadge value={order.status} label=\"order status\" />;\n}\n"),
    rules: [STATUS],
  },
  {
    name: "the same status words in JSON are not a UI surface",
    event: (r) => write(abs(r, "src/lib/order-status.json"), '{ "order status": ["open", "paid"], "status badge": true }\n'),
    rules: [],
  },
  {
    name: "a controller inside its paths gets the thin-controller rule",
    event: (r) => write(abs(r, "src/controllers/orders.js"), "export class OrdersController {\n  list(req, res) {\n    res.json([]);\n  }\n}\n"),
    rules: [THIN],
  },
  {
    name: "a service mentioning controllers is outside the controller paths",
    event: (r) => write(abs(r, "src/services/orders-service.js"), "// called by the orders controller\nexport function listAll() {\n  return [];\n}\n"),
    rules: [],
  },
  {
    name: "a planner-only rule injects for the planner",
    event: (r) => write(abs(r, "notes/roadmap.txt"), "Roadmap: milestone plan for Q3\n"),
    args: ["--agent=planner"],
    rules: [ROADMAP],
  },
  { name: "a planner-only rule is silent for dev", event: (r) => write(abs(r, "notes/roadmap.txt"), "Roadmap: milestone plan for Q3\n"), args: ["--agent=dev"], rules: [] },
  {
    name: "the event's own agent is used under --agent=auto",
    event: (r) => write(abs(r, "notes/roadmap.txt"), "Roadmap: milestone plan for Q3\n", { agent_name: "@Planner" }),
    rules: [ROADMAP],
  },
  {
    name: "AIOSON_AGENT is used when the event names no agent",
    event: (r) => write(abs(r, "notes/roadmap.txt"), "Roadmap: milestone plan for Q3\n"),
    env: { AIOSON_AGENT: "planner" },
    rules: [ROADMAP],
  },
  {
    name: "an explicit --agent is never overridden by the event",
    event: (r) => write(abs(r, "notes/roadmap.txt"), "Roadmap: milestone plan for Q3\n", { agent: "planner" }),
    args: ["--agent=dev"],
    rules: [],
  },
  {
    name: "a NotebookEdit is judged by vocabulary only",
    event: (r) => ({ tool_name: "NotebookEdit", tool_input: { notebook_path: abs(r, "analysis/prices.ipynb"), new_source: "df['price'] * df['amount']" } }),
    rules: [MONEY],
  },
  {
    name: "a relative path from the event is resolved against the project",
    event: () => write("./src/api/orders.js", "export const problem = 'error response';\n"),
    rules: [API],
  },
  { name: "a write outside the project is none of its rules' business", event: () => write("/tmp/elsewhere/pricing.js", "export const price = 1, amount = 2;\n"), rules: [] },
  {
    name: "words that are Object.prototype keys (constructor, toString) are just words",
    event: (r) => write(abs(r, "src/services/price-book.ts"), "export class PriceBook {\n  constructor(private readonly price: number) {}\n  toString() { return `${this.price}`; }\n  hasOwnProperty() { return false; }\n}\n"),
    rules: [MONEY],
  },
  { name: "a Write with no file and no content is silent", event: () => ({ tool_name: "Write", tool_input: {} }), rules: [] },
];

describe("context:guard table (fixture project)", () => {
  test("the table is large enough to mean something", () => {
    expect(ROWS.length).toBeGreaterThanOrEqual(40);
  });

  for (const row of ROWS) {
    test(row.name, () => {
      const run = guard(project, row.event(project), ["--no-jev", ...(row.args ?? [])], row.env);
      expect(run.code).toBe(0);
      expect(run.stderr).toBe("");
      expect(run.rules).toEqual(row.rules);
      if (row.rules.length === 0) expect(run.json).toEqual({});
      else expect(Object.keys(run.json as object)).toEqual(["hookSpecificOutput"]);
      for (const text of row.contains ?? []) expect(run.text).toContain(text);
      for (const text of row.excludes ?? []) expect(run.text).not.toContain(text);
    });
  }
});
