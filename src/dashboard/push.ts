/**
 * Server push of new events (Server-Sent Events). One watcher per watched project, however many browsers watch it:
 * it holds a read-only connection and asks SQLite every POLL_MS whether anything was committed since it last looked
 * (`PRAGMA data_version` changes when another connection commits; it costs no read of the store). Only then does it
 * read the rows after the last id it sent (through the primary key) and send them to every subscriber. The store is
 * never rescanned, written or checkpointed.
 */
import type { Database } from "bun:sqlite";
import type { PushMessage, ViewEvent } from "./api.ts";
import { eventsAfter, lastEvent } from "./queries.ts";
import { openReadOnly } from "./stores.ts";

export const POLL_MS = 100;
/** Rows sent per change; past this a subscriber is told to reload instead (a burst the page cannot show anyway). */
const PUSH_MAX = 200;
/** A comment line keeps idle connections (and proxies) from timing out. */
const HEARTBEAT_MS = 15_000;

export type Subscriber = {
  /** Receives each push; `events` empty means "something changed, reload what you show". */
  send: (message: PushMessage) => void;
};

class Watcher {
  #db: Database | null = null;
  #version = -1;
  #last = 0;
  /** Whether a poll found no store: the first one that finds it tells the subscribers to reload. */
  #missing = false;
  readonly subscribers = new Set<Subscriber>();

  constructor(
    readonly project: string,
    readonly root: string,
  ) {}

  /** The store may appear after the dashboard started (a project's first hook creates it). */
  #connect(): Database | null {
    if (this.#db) return this.#db;
    try {
      this.#db = openReadOnly(this.root);
    } catch {
      this.#db = null;
    }
    if (!this.#db) {
      this.#missing = true;
      return null;
    }
    this.#last = lastEvent(this.#db)?.id ?? 0;
    if (this.#missing) {
      this.#missing = false;
      this.#broadcast([]);
    }
    return this.#db;
  }

  #broadcast(events: ViewEvent[]): void {
    const message: PushMessage = { project: this.project, last: this.#last, events };
    for (const subscriber of this.subscribers) subscriber.send(message);
  }

  poll(): void {
    const db = this.#connect();
    if (!db) return;
    let events: ViewEvent[];
    try {
      const version = (db.query("PRAGMA data_version").get() as { data_version: number }).data_version;
      if (version === this.#version) return;
      this.#version = version;
      events = eventsAfter(db, this.#last, PUSH_MAX + 1);
    } catch {
      // The store was replaced or broke: reconnect on the next poll.
      this.close();
      return;
    }
    if (events.length === 0) return;
    const overflow = events.length > PUSH_MAX;
    this.#last = overflow ? (lastEvent(db)?.id ?? this.#last) : (events.at(-1)?.id ?? this.#last);
    this.#broadcast(overflow ? [] : events);
  }

  close(): void {
    this.#db?.close();
    this.#db = null;
    this.#version = -1;
  }
}

/** The watchers of every project someone watches, polled on one timer. */
export class PushHub {
  readonly #watchers = new Map<string, Watcher>();
  #timer: ReturnType<typeof setInterval> | null = null;

  subscribe(project: string, root: string, subscriber: Subscriber): () => void {
    let watcher = this.#watchers.get(project);
    if (!watcher) {
      watcher = new Watcher(project, root);
      watcher.poll();
      this.#watchers.set(project, watcher);
    }
    watcher.subscribers.add(subscriber);
    this.#timer ??= setInterval(() => this.#pollAll(), POLL_MS);
    return () => this.#unsubscribe(project, subscriber);
  }

  #unsubscribe(project: string, subscriber: Subscriber): void {
    const watcher = this.#watchers.get(project);
    if (!watcher) return;
    watcher.subscribers.delete(subscriber);
    if (watcher.subscribers.size > 0) return;
    watcher.close();
    this.#watchers.delete(project);
    if (this.#watchers.size === 0 && this.#timer) {
      clearInterval(this.#timer);
      this.#timer = null;
    }
  }

  #pollAll(): void {
    for (const watcher of this.#watchers.values()) watcher.poll();
  }

  get watching(): number {
    return this.#watchers.size;
  }

  close(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    for (const watcher of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
  }
}

const encoder = new TextEncoder();

/**
 * An SSE response for `projects` (id → root): one `data:` line of JSON per push. `retry` makes a browser reconnect
 * within a second when the connection drops.
 */
export function eventStream(hub: PushHub, projects: ReadonlyArray<{ id: string; root: string }>, headers: Readonly<Record<string, string>>, signal: AbortSignal): Response {
  let cleanup: Array<() => void> = [];
  let heartbeat: ReturnType<typeof setInterval> | null = null;
  const stop = (): void => {
    for (const unsubscribe of cleanup) unsubscribe();
    cleanup = [];
    if (heartbeat) clearInterval(heartbeat);
    heartbeat = null;
  };
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const write = (text: string): void => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          stop();
        }
      };
      write("retry: 1000\n: connected\n\n");
      for (const project of projects) cleanup.push(hub.subscribe(project.id, project.root, { send: (message) => write(`data: ${JSON.stringify(message)}\n\n`) }));
      heartbeat = setInterval(() => write(": ping\n\n"), HEARTBEAT_MS);
      signal.addEventListener("abort", () => {
        stop();
        try {
          controller.close();
        } catch {
          // Already closed by the client.
        }
      });
    },
    cancel: stop,
  });
  return new Response(stream, { headers: { ...headers, "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store", "X-Accel-Buffering": "no" } });
}
