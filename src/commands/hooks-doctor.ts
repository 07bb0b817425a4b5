import { notImplemented } from "./not-implemented.ts";

export default notImplemented("hooks:doctor", "Check that the installed hooks really fire, with a fix for each problem");
