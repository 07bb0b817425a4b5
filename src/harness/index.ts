/** `--source` picks the adapter; an unknown harness is treated as Claude-compatible. */
import { antigravityAdapter } from "./antigravity.ts";
import { claudeAdapter } from "./claude.ts";
import { codexAdapter } from "./codex.ts";
import { opencodeAdapter } from "./opencode.ts";
import type { Adapter } from "./types.ts";

const ADAPTERS: Readonly<Record<string, Adapter>> = {
  claude: claudeAdapter,
  codex: codexAdapter,
  antigravity: antigravityAdapter,
  opencode: opencodeAdapter,
};

export function adapterFor(source: string): Adapter {
  return ADAPTERS[source] ?? claudeAdapter;
}
