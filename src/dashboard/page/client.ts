/** Talking to the dashboard's server: JSON reads (the cookie travels by itself) and the push of new events. */
import type { PushMessage } from "../api.ts";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

type Params = Record<string, string | number | null | undefined>;

export async function get<T>(path: string, params: Params = {}): Promise<T> {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== null && value !== undefined && value !== "") query.set(key, String(value));
  const response = await fetch(`${path}${query.size > 0 ? `?${query}` : ""}`, { credentials: "same-origin", headers: { Accept: "application/json" } });
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    try {
      const body = (await response.json()) as { error?: unknown };
      if (typeof body.error === "string") message = body.error;
    } catch {
      // Not JSON (a refusal): keep the status line.
    }
    throw new ApiError(response.status, message);
  }
  return (await response.json()) as T;
}

export type Push = { close: () => void };

/** Subscribes to new events of one project (or change notices of all); `state` reports the connection. */
export function subscribe(project: string | null, onMessage: (message: PushMessage) => void, state: (live: boolean) => void): Push {
  const source = new EventSource(project ? `/api/stream?project=${encodeURIComponent(project)}` : "/api/stream");
  source.addEventListener("open", () => state(true));
  source.addEventListener("error", () => state(false));
  source.addEventListener("message", (event: MessageEvent<string>) => {
    try {
      onMessage(JSON.parse(event.data) as PushMessage);
    } catch {
      // A malformed push is dropped; the next one, or a reload, brings the view up to date.
    }
  });
  return { close: () => source.close() };
}

/** Calls `work` at most once per `ms`, always after the last request (a burst of pushes becomes one reload). */
export function debounce(work: () => void, ms: number): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  return () => {
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      work();
    }, ms);
  };
}
