import { guardCommand } from "../kit/run.ts";
import { skillFeedbackGuard } from "../kit/guards.ts";

export default guardCommand(skillFeedbackGuard);
