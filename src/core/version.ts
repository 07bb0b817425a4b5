import pkg from "../../package.json" with { type: "json" };

/** Replaced at build time by scripts/build.ts (`define`); absent when running from source. */
declare const AIOSON_COMMIT: string | undefined;

export const VERSION: string = pkg.version;
export const COMMIT: string = typeof AIOSON_COMMIT === "string" ? AIOSON_COMMIT : "source";

export function versionLine(): string {
  return `aioson ${VERSION} (${COMMIT})`;
}
