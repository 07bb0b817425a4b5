/**
 * What to run next after a failure a command did not word itself: a CommandError carries its own hint; the errors
 * that come from below (the store, the file system, a refused project path) are recognised by their code.
 */
import { CommandError } from "../core/output.ts";

const STORE = "the project's runtime store (.aioson/runtime/aios.sqlite)";

function code(error: unknown): string {
  const value = (error as { code?: unknown } | null)?.code;
  return typeof value === "string" ? value : "";
}

/** SQLite's result codes, by what a person can do about them. */
function sqliteHint(sqlite: string): string {
  if (/^SQLITE_(BUSY|LOCKED)/.test(sqlite)) return `Another aioson (a hook) is writing to ${STORE}: run the command again in a moment.`;
  if (/^SQLITE_(READONLY|CANTOPEN|PERM|AUTH)/.test(sqlite)) return `Check that you can write ${STORE} and its folder, then run the command again.`;
  if (/^SQLITE_(NOTADB|CORRUPT)/.test(sqlite)) return `${STORE[0]?.toUpperCase()}${STORE.slice(1)} is damaged or not a database: move it away, then run \`aioson runtime:init\` to start a new one.`;
  if (sqlite === "SQLITE_FULL") return "The disk is full: free some space, then run the command again.";
  return `Run \`aioson runtime:status\` to see ${STORE}; \`aioson hooks:doctor\` checks the install.`;
}

export function nextStep(error: unknown): string | null {
  if (error instanceof CommandError) return error.hint;
  const found = code(error);
  if (found === "unsafe_store") return "Nothing was read from it or written to it. If the repository committed .aioson/runtime/aios.sqlite, untrack it (git rm --cached .aioson/runtime/aios.sqlite), move the file away with its -wal and -shm files, then run `aioson runtime:init`.";
  if (found === "unsafe_project_path") return "Nothing was changed. Look at what is there (a symlink, or a path that leaves the project), replace it with a plain file or folder or remove it, then run the command again.";
  if (found.startsWith("SQLITE_")) return sqliteHint(found);
  if (found === "EACCES" || found === "EPERM") return "Check your permissions on what the error names (a file, a folder, a port below 1024), then run the command again.";
  if (found === "ENOSPC") return "The disk is full: free some space, then run the command again.";
  return "If it happens again, `aioson hooks:doctor` checks the install, and `aioson --version` names the build to report.";
}
