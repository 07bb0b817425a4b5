export type ProcessState = "not_tracked" | "alive" | "dead" | "unknown";

/** Spec 11: the state of a recorded harness pid (signal 0 probes without touching the process). */
export function processState(pid: number | null | undefined): ProcessState {
  if (typeof pid !== "number" || !Number.isInteger(pid) || pid <= 0) return "not_tracked";
  try {
    process.kill(pid, 0);
    return "alive";
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ESRCH") return "dead";
    if (code === "EPERM") return "alive";
    return "unknown";
  }
}
