import { notImplemented } from "./not-implemented.ts";

export default notImplemented("guard:subagent-audit", "Log every sub-agent start");
