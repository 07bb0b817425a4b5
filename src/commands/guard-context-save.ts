import { guardCommand } from "../kit/run.ts";
import { contextSaveGuard } from "../kit/guards.ts";

export default guardCommand(contextSaveGuard);
