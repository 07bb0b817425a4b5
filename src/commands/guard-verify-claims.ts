import { notImplemented } from "./not-implemented.ts";

export default notImplemented("guard:verify-claims", "Block a stop whose message names paths no tool touched");
