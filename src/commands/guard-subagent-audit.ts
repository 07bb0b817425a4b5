import { guardCommand } from "../kit/run.ts";
import { subagentAuditGuard } from "../kit/guards.ts";

export default guardCommand(subagentAuditGuard);
