import { guardCommand } from "../kit/run.ts";
import { stopChecklistGuard } from "../kit/guards.ts";

export default guardCommand(stopChecklistGuard);
