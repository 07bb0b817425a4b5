/**
 * context:guard on a 300-line TypeScript write with 20 and with 200 project rules. The installed hook
 * line is mirrored (`--tool=claude --agent=auto --json`); no models file, so the judge is never asked.
 *
 * Targets (issue 6): with 20 rules, a median at most 2.5x the floor's. With 200 rules, growth with the number
 * of rules must stay near linear: the 200-rule median is checked against the 20-rule median of the same run.
 * Linear growth of the whole call would allow 10x for 10x the rules; the target is 2.5x, so that the per-rule
 * work stays a minor part of a call next to the fixed cost (a hook on the agent's critical path).
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BenchCase } from "./types.ts";

const DOMAIN = [
  "order", "invoice", "customer", "payment", "refund", "shipment", "coupon", "cart", "catalog", "inventory",
  "warehouse", "supplier", "tax", "discount", "subscription", "webhook", "audit", "session", "token", "report",
];
const SURFACES = ["", "guard_surfaces: [ui]\n"];

/** Rule i: a realistic mix of entities, triggers, path scopes, opt-ins and checkers. */
function rule(i: number): string {
  const a = DOMAIN[i % DOMAIN.length] as string;
  const b = DOMAIN[(i * 7 + 3) % DOMAIN.length] as string;
  const lines = [
    "---",
    `description: ${a} ${b} rule ${i}`,
    `triggers: [${a} ${b}, ${b} flow ${i}]`,
    i % 3 === 0 ? `entities: [${a}, ${b} record]` : `aliases: [${a}-${b}-${i}]`,
    i % 4 === 0 ? `paths: ["src/${a}/**", "**/${b}s/**"]` : "",
    i % 5 === 0 ? "guard: true" : "",
    i % 10 === 0 ? "enforcement: [source-code-language, function-size]" : "",
    i % 17 === 0 ? "enforcement: no-native-dialogs" : "",
    SURFACES[i % 2] as string,
    "---",
    `# ${a} / ${b}`,
    "",
    "## Required behavior",
    `- Keep ${a} logic in the ${a} service; controllers only map requests.`,
    `- Use the shared ${b} repository; never query ${b} tables directly.`,
    `- Report every ${a} state change to the audit log.`,
    "",
    "## Notes",
    `The ${a} and ${b} modules evolve together; see the design doc for the ${i}th decision.`,
  ];
  return `${lines.filter((line) => line !== "").join("\n")}\n`;
}

function typescriptFile(): string {
  const lines = ['import { Repository } from "../db/repository";', 'import type { Order, Customer } from "../domain/types";', ""];
  lines.push("export class OrderService {", "  constructor(private readonly orders: Repository<Order>, private readonly customers: Repository<Customer>) {}", "");
  for (let i = 0; lines.length < 296; i++) {
    lines.push(
      `  async loadOrderBatch${i}(customerId: string, limit = ${i + 10}): Promise<Order[]> {`,
      "    const customer = await this.customers.find(customerId);",
      "    if (!customer) throw new Error(`unknown customer ${customerId}`);",
      "    const orders = await this.orders.where({ customerId, status: \"open\" });",
      `    const total = orders.reduce((sum, order) => sum + order.totalCents, ${i});`,
      "    return orders.slice(0, limit).map((order) => ({ ...order, total }));",
      "  }",
      "",
    );
  }
  lines.push("}", "");
  return lines.join("\n");
}

export function setup(count: number): (project: string) => void {
  return (project) => {
    const rules = join(project, ".aioson", "rules");
    mkdirSync(rules, { recursive: true });
    const config = join(project, ".aioson", "config.md");
    if (!existsSync(config)) writeFileSync(config, "# bench project\n");
    for (let i = 0; i < count; i++) writeFileSync(join(rules, `rule-${String(i).padStart(3, "0")}.md`), rule(i));
  };
}

/** The PreToolUse payload of the 300-line write (`session` is its harness session id). */
export function writeEvent(session: string): string {
  return JSON.stringify({
    session_id: session,
    hook_event_name: "PreToolUse",
    tool_name: "Write",
    tool_input: { file_path: "src/order/order-service.ts", content: typescriptFile() },
  });
}

const stdin = writeEvent("bench-session");

const args = ["context:guard", "{project}", "--tool=claude", "--agent=auto", "--json"];

const TWENTY = "context:guard 300-line TS write, 20 rules";

const cases: BenchCase[] = [
  { name: TWENTY, args, stdin, setup: setup(20), maxRatio: 2.5 },
  { name: "context:guard 300-line TS write, 200 rules", args, stdin, setup: setup(200), ratioTo: { name: TWENTY, max: 2.5 } },
];

export default cases;
