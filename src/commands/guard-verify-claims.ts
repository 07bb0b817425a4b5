import { guardCommand } from "../kit/run.ts";
import { verifyClaimsGuard } from "../kit/guards.ts";

export default guardCommand(verifyClaimsGuard);
