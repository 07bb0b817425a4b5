import { realpathSync } from "node:fs";
import { isAbsolute, relative, resolve, sep, win32 } from "node:path";
import { isInside } from "../core/project-root.ts";

function insideRelative(root: string, absolute: string): string | null {
  if (!isInside(root, absolute)) return null;
  const rel = relative(root, absolute);
  return rel === "" ? "." : rel.split(sep).join("/");
}

/** `C:\\x` read on POSIX: absolute somewhere else, never a path under this root. */
function isForeignAbsolute(path: string): boolean {
  return !isAbsolute(path) && win32.isAbsolute(path);
}

/**
 * Spec 4.3: a tool's file path as the project sees it — relative with `/` separators when it lies in
 * the root (relative inputs resolve against the payload cwd, else the root); a path outside the root is
 * kept as given. Symlinked spellings (macOS /var → /private/var) are matched through realpath.
 */
export function projectPath(root: string, cwd: string | null, path: string): string {
  const given = path.trim().replace(/^\.[\\/]+/, "");
  if (given === "" || isForeignAbsolute(given)) return given;
  const base = !cwd || isForeignAbsolute(cwd) ? root : isAbsolute(cwd) ? cwd : resolve(root, cwd);
  const absolute = isAbsolute(given) ? resolve(given) : resolve(base, given);
  const direct = insideRelative(root, absolute);
  if (direct !== null) return direct;
  try {
    const real = insideRelative(root, realpathSync(absolute));
    if (real !== null) return real;
  } catch {
    // A deleted or never-created file: the given spelling stays.
  }
  return given;
}
