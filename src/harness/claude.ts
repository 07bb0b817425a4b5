/** Claude Code: the reference envelope (spec 3.1); newer builds call Task `Agent` and Windows Bash `PowerShell`. */
import { eventFromEnvelope, parseEnvelope } from "./common.ts";
import type { Adapter } from "./types.ts";

const TOOL_ALIASES: Readonly<Record<string, string>> = { Agent: "Task", PowerShell: "Bash" };

export const claudeAdapter: Adapter = (raw) => eventFromEnvelope(parseEnvelope(raw), { harness: "claude", toolAliases: TOOL_ALIASES });
