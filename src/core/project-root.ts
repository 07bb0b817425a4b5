import { existsSync, realpathSync, statSync } from "node:fs";
import { dirname, join, parse, resolve, sep } from "node:path";

/** Entries that make a `.aioson/` directory a project tree rather than the per-user operator store. */
const PROJECT_MARKERS = ["config.md", "constitution.md", "context", "agents"] as const;
const MAX_WALK = 64;

/** throwIfNoEntry: a folder without `.aioson/` is the usual answer on the walk up, and an exception costs far more. */
function isDirectory(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Splits an absolute path into its root and segments; the root keeps its own separator so that
 * `joinSegments` works for both `/a/b` and `C:\a\b`.
 */
function splitPath(absolute: string): { root: string; segments: string[] } {
  const { root } = parse(absolute);
  const rest = absolute.slice(root.length);
  return { root, segments: rest.split(/[\\/]+/).filter(Boolean) };
}

function joinSegments(root: string, segments: readonly string[]): string {
  return segments.length === 0 ? root : join(root, ...segments);
}

/** Spec 1.2: a path inside a `.aioson/` data tree belongs to the project that owns the tree. */
export function escapeDataTree(path: string): string {
  const absolute = resolve(path);
  const { root, segments } = splitPath(absolute);
  let from = 0;
  for (;;) {
    const dataIndex = segments.indexOf(".aioson", from);
    if (dataIndex < 0) return absolute;
    let checkout = -1;
    for (let i = dataIndex + 1; i < segments.length; i++) {
      if (existsSync(join(joinSegments(root, segments.slice(0, i + 1)), ".git"))) {
        checkout = i;
        break;
      }
    }
    if (checkout < 0) return joinSegments(root, segments.slice(0, dataIndex));
    from = checkout + 1;
  }
}

/** Spec 1.1: a directory holding a project `.aioson/` tree, not itself inside another data tree. */
export function isProjectRoot(dir: string): boolean {
  const absolute = resolve(dir);
  const data = join(absolute, ".aioson");
  if (!isDirectory(data)) return false;
  if (!PROJECT_MARKERS.some((marker) => existsSync(join(data, marker)))) return false;
  return escapeDataTree(absolute) === absolute;
}

/** Spec 1.3: the nearest project root at or above `start`, as a real path; null when there is none. */
export function resolveProjectRoot(start: string): string | null {
  let dir = resolve(start);
  for (let i = 0; i < MAX_WALK; i++) {
    if (isProjectRoot(dir)) return realOrSelf(dir);
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
  return null;
}

/** Hook mode (spec 1.4): strict walk; null means "do nothing, create nothing". */
export function resolveHookRoot(start: string): string | null {
  return resolveProjectRoot(start);
}

/** User-command mode (spec 1.4): the project above `start`, else `start` itself (outside any data tree). */
export function resolveUserRoot(start: string): string {
  const escaped = escapeDataTree(start);
  return resolveProjectRoot(escaped) ?? escaped;
}

/** Install-target mode (spec 1.4): only a path inside a data tree is walked. */
export function resolveTargetDir(start: string): string {
  const absolute = resolve(start);
  const escaped = escapeDataTree(absolute);
  if (escaped === absolute) return absolute;
  return resolveProjectRoot(escaped) ?? escaped;
}

/** True when `path` (absolute or relative to `root`) stays inside `root`. */
export function isInside(root: string, path: string): boolean {
  const target = resolve(root, path);
  return target === root || target.startsWith(root.endsWith(sep) ? root : root + sep);
}
