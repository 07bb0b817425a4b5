import { notImplemented } from "./not-implemented.ts";

export default notImplemented("context:usage", "Report whether injected rules were honoured");
