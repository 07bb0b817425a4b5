import { CommandError, printJson } from "../core/output.ts";
import { openStore, type Store } from "../store/db.ts";
import { dbPath } from "../store/paths.ts";

export function storeMissingMessage(path: string): string {
  return `Runtime store not found: ${path}. Run: aioson runtime:init`;
}

/** Opens an existing store for a people-facing reader, or fails with the spec's hint. */
export function openExistingStore(root: string): Store {
  const store = openStore(root, { mustExist: true });
  if (!store) throw new CommandError(storeMissingMessage(dbPath(root)));
  return store;
}

/**
 * The same for a command with `--json`: a missing store is `{ok:false, error:"store_missing", dbPath}` and exit
 * status 1 there (spec 12), the hint otherwise; null when it was reported.
 */
export function openStoreOrReport(root: string, json: boolean): Store | null {
  const store = openStore(root, { mustExist: true });
  if (store) return store;
  if (!json) throw new CommandError(storeMissingMessage(dbPath(root)));
  printJson({ ok: false, error: "store_missing", dbPath: dbPath(root) });
  process.exitCode = 1;
  return null;
}
