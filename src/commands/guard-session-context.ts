import { guardCommand } from "../kit/run.ts";
import { sessionContextGuard } from "../kit/guards.ts";

export default guardCommand(sessionContextGuard);
