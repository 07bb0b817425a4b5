import { notImplemented } from "./not-implemented.ts";

export default notImplemented("guard:lesson-injector", "Inject matching lessons into the prompt");
