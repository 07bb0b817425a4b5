import { notImplemented } from "./not-implemented.ts";

export default notImplemented("guard:skill-feedback", "Ask for feedback on the skills used in the turn");
