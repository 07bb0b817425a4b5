import { guardCommand } from "../kit/run.ts";
import { contextConfidenceCheckGuard } from "../kit/guards.ts";

export default guardCommand(contextConfidenceCheckGuard);
