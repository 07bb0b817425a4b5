import { guardCommand } from "../kit/run.ts";
import { preCommitGuard } from "../kit/guards.ts";

export default guardCommand(preCommitGuard);
