/** The shell wrapper older versions wrote next to Codex's config: rewritten as a pass-through (spec 9.6). */
import { writeFileAtomicKeepMode } from "./write.ts";

const PASS_THROUGH = `#!/bin/sh
# Obsolete AIOSON wrapper: it only forwards to codex now. Remove the alias from your shell rc and delete this file.
echo "aioson-wrapper.sh is obsolete: it now only forwards to codex; remove the alias and delete $0" >&2
if [ -n "$AIOSON_CODEX_WRAPPER_ACTIVE" ]; then echo "aioson-wrapper.sh: recursion detected, giving up" >&2; exit 127; fi
AIOSON_CODEX_WRAPPER_ACTIVE=1
export AIOSON_CODEX_WRAPPER_ACTIVE
if command -v codex-bin >/dev/null 2>&1; then exec codex-bin "$@"; fi
exec codex "$@"
`;

export function rewriteLegacyWrapper(path: string): void {
  try {
    writeFileAtomicKeepMode(path, PASS_THROUGH);
  } catch {
    // the warning line still tells the user to delete it
  }
}

export function obsoleteWrapperLine(path: string): string {
  return `  ⚠ ${path} is obsolete — it now only forwards to codex; remove the alias from your shell rc and delete the file.`;
}
