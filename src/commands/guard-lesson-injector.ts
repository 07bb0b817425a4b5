import { guardCommand } from "../kit/run.ts";
import { lessonInjectorGuard } from "../kit/guards.ts";

export default guardCommand(lessonInjectorGuard);
