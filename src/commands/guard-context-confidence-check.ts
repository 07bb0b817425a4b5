import { notImplemented } from "./not-implemented.ts";

export default notImplemented("guard:context-confidence-check", "Require tool evidence for medium/low confidence rows");
