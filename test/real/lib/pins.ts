/**
 * The pin file (test/real/harnesses.json): one entry per harness, the npm package, the exact version and where the
 * executable sits inside the install for each platform. Bumping a harness is an edit of this file only.
 */
import * as v from "valibot";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const PinSchema = v.strictObject({
  package: v.pipe(v.string(), v.regex(/^(?:@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/)),
  /** An exact version: the bench never resolves a range. */
  version: v.pipe(v.string(), v.regex(/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/)),
  /** Interpreter for a plain-JS harness (`node`); absent for native binaries. */
  runner: v.optional(v.picklist(["node"])),
  /** `<platform>-<arch>` → path inside the install folder. */
  executables: v.record(v.pipe(v.string(), v.regex(/^[a-z0-9]+-[a-z0-9]+$/)), v.pipe(v.string(), v.regex(/^node_modules\/[^\s]+$/), v.check((p) => !p.split("/").includes(".."), "no .. segments"))),
});

const PinsSchema = v.pipe(
  v.record(v.string(), v.unknown()),
  v.transform((raw) => Object.fromEntries(Object.entries(raw).filter(([key]) => !key.startsWith("$")))),
  v.record(v.pipe(v.string(), v.regex(/^[a-z][a-z0-9-]*$/)), PinSchema),
);

export type Pin = v.InferOutput<typeof PinSchema>;

export const PIN_FILE = join(import.meta.dir, "..", "harnesses.json");

let cached: Record<string, Pin> | null = null;

export function pins(): Record<string, Pin> {
  cached ??= v.parse(PinsSchema, JSON.parse(readFileSync(PIN_FILE, "utf8")));
  return cached;
}

export function pin(harness: string): Pin {
  const found = pins()[harness];
  if (!found) throw new Error(`no pin for harness "${harness}" in ${PIN_FILE} (known: ${Object.keys(pins()).join(", ")})`);
  return found;
}

export function platformKey(): string {
  return `${process.platform}-${process.arch}`;
}
