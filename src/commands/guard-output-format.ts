import { guardCommand } from "../kit/run.ts";
import { outputFormatGuard } from "../kit/guards.ts";

export default guardCommand(outputFormatGuard);
