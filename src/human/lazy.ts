/**
 * The human output for commands agents also call, often with `--json` (runtime:emit, agent:done, runtime:status,
 * live:status…): output.ts and consola are loaded only when there is something to print for a person.
 */
import type { HumanOutput } from "./output.ts";

export async function say(kind: "success" | "info" | "warn", text: string): Promise<void> {
  const output: HumanOutput = (await import("./output.ts")).human();
  output[kind](text);
}

export async function sayLines(lines: readonly string[]): Promise<void> {
  (await import("./output.ts")).printHuman(lines);
}
