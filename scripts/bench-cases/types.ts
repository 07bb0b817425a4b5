/**
 * A benchmark case: one command line timed against the floor binary in the same run.
 * Each issue adds its cases as a file in this folder exporting `default: BenchCase[]`;
 * scripts/bench.ts loads every file here.
 */
export type BenchCase = {
  /** Label in the table, e.g. "hooks:emit claude Write". */
  name: string;
  /** Arguments after the binary; `{project}` is replaced by the prepared project directory. */
  args: string[];
  /** The stdin payload (written to a file once and redirected into every run). */
  stdin?: string;
  /** Prepares the project directory once before timing (fixtures, a pre-filled store...). */
  setup?: (project: string, binary: string) => void | Promise<void>;
  /** Target: median at most this many times the floor's median. */
  maxRatio?: number;
  /** Target against another case of the same run (by name): median at most `max` times that case's median. */
  ratioTo?: { name: string; max: number };
  /** Optional target on peak resident memory, in MiB. */
  maxRssMiB?: number;
  /** Extra environment for the runs (`{project}` is replaced); the process runs in the project directory. */
  env?: Record<string, string>;
  /**
   * Cases with the same key run in one project, prepared once by the `setup` of the first of them (a store of a
   * million events is copied once, not once per case).
   */
  shared?: string;
  /** A point of a printed curve: the case is the `series` command measured at store size `size`. */
  curve?: { series: string; size: string };
};
