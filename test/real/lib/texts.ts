/** aioson's own texts the scenarios look for in what the model was sent (taken from the source, never copied). */
import { REMINDERS } from "../../../src/kit/guard-stop.ts";

export const REMINDER_TEXT = REMINDERS["stop-checklist"];
