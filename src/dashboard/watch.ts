/**
 * `aioson live:status --watch`: the live summary redrawn in the terminal. A frame is the live:status text of spec 11
 * and, below it, the dashboard's summary of the session the run wrote last (digest.ts). A frame is drawn every
 * `seconds` and as soon as a hook commits to the store (the dashboard's push: `PRAGMA data_version` of a held
 * read-only connection, checked every POLL_MS), so a new event shows within a fraction of a second.
 */
import type { Database } from "bun:sqlite";
import { human, printHuman } from "../human/output.ts";
import { runDigest } from "./digest.ts";
import { POLL_MS } from "./push.ts";
import { openReadOnly } from "./stores.ts";

export type Frame = { lines: string[]; runKey: string | null };

function version(db: Database | null): number | null {
  try {
    return db ? (db.query("PRAGMA data_version").get() as { data_version: number }).data_version : null;
  } catch {
    return null;
  }
}

/** Reprints until SIGINT/SIGTERM; a TTY screen is cleared before each frame. */
export function watchLive(root: string, seconds: number, frame: () => Frame): Promise<void> {
  let db: Database | null = null;
  const reader = (): Database | null => {
    try {
      db ??= openReadOnly(root);
    } catch {
      db = null;
    }
    return db;
  };
  const draw = (): void => {
    const { lines, runKey } = frame();
    const store = reader();
    const digest = store && runKey ? runDigest(store, root, runKey) : [];
    if (process.stdout.isTTY) process.stdout.write("\x1b[2J\x1b[H");
    printHuman(digest.length > 0 ? [...lines, "", ...digest] : lines);
  };
  const safely = (): void => {
    try {
      draw();
    } catch (error) {
      human().error(error instanceof Error ? error.message : String(error));
    }
  };
  draw();
  let seen = version(reader());
  let drawnAt = Date.now();
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      const now = version(reader());
      if (now === seen && Date.now() - drawnAt < seconds * 1000) return;
      seen = now;
      drawnAt = Date.now();
      safely();
    }, Math.min(POLL_MS, seconds * 1000));
    const stop = (): void => {
      clearInterval(timer);
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      db?.close();
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}
