/**
 * The user-level aioson config file: the only place, besides the environment, where settings that can send data
 * off the machine (the judge's endpoint and key, the OpenTelemetry endpoint and headers) may come from. A project is
 * untrusted (docs/security.md), so no file inside a project can ever set them; HOME is the user's.
 *
 *   $XDG_CONFIG_HOME/aioson/config.json, else ~/.config/aioson/config.json   (POSIX)
 *   %APPDATA%\aioson\config.json, else ~\AppData\Roaming\aioson\config.json  (Windows)
 *
 * This module only finds and reads the file (bounded, regular files only, JSON object or nothing); each section
 * (`jev`, `otel`, ...) is validated with valibot by the module that owns it.
 */
import { join, resolve } from "node:path";
import { homeDir } from "./home.ts";
import { readRegularFile } from "./regular-file.ts";

type Env = Readonly<Record<string, string | undefined>>;

/** A config file is a few hundred bytes; anything past this is not ours and is not read. */
export const USER_CONFIG_MAX_BYTES = 256 * 1024;

function envDir(env: Env, key: string): string | null {
  const value = env[key];
  return value === undefined || value.trim() === "" ? null : resolve(value);
}

function userHome(env: Env): string {
  return resolve(homeDir(env));
}

export function userConfigDir(env: Env = process.env, platform: NodeJS.Platform = process.platform): string {
  if (platform === "win32") return join(envDir(env, "APPDATA") ?? join(userHome(env), "AppData", "Roaming"), "aioson");
  return join(envDir(env, "XDG_CONFIG_HOME") ?? join(userHome(env), ".config"), "aioson");
}

export function userConfigPath(env: Env = process.env, platform: NodeJS.Platform = process.platform): string {
  return join(userConfigDir(env, platform), "config.json");
}

export type UserConfigRead =
  | { kind: "absent" }
  | { kind: "invalid"; path: string; reason: string }
  | { kind: "ok"; path: string; config: Record<string, unknown> };

/**
 * Reads the user config: a missing file is `absent`; a FIFO, device or folder, a file over the bound, unparsable
 * JSON or a non-object is `invalid` (with the reason, for `hooks:doctor`). Read with readRegularFile, so a FIFO
 * never hangs a hook; never throws.
 */
export function readUserConfig(env: Env = process.env, platform: NodeJS.Platform = process.platform): UserConfigRead {
  const path = userConfigPath(env, platform);
  const read = readRegularFile(path, USER_CONFIG_MAX_BYTES);
  switch (read.kind) {
    case "missing":
      return { kind: "absent" };
    case "not-regular":
      return { kind: "invalid", path, reason: `${read.what}, not a file` };
    case "too-large":
      return { kind: "invalid", path, reason: `larger than ${read.limit} bytes` };
    case "error":
      return read.code === "ENOTDIR" ? { kind: "absent" } : { kind: "invalid", path, reason: read.code };
  }
  try {
    const value: unknown = JSON.parse(read.text);
    if (value === null || typeof value !== "object" || Array.isArray(value)) return { kind: "invalid", path, reason: "not a JSON object" };
    return { kind: "ok", path, config: value as Record<string, unknown> };
  } catch (error) {
    return { kind: "invalid", path, reason: error instanceof Error ? error.message : String(error) };
  }
}

/** One section of the user config (`jev`, `otel`, ...), unvalidated: its owner validates it. */
export function userConfigSection(name: string, env: Env = process.env, platform: NodeJS.Platform = process.platform): unknown {
  const read = readUserConfig(env, platform);
  return read.kind === "ok" ? read.config[name] : undefined;
}
