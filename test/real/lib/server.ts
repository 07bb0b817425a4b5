/**
 * The scripted model server shared by every harness: Bun.serve on 127.0.0.1, port 0. It logs every request (the
 * proof of what the model was sent), lets the wire module answer side requests (token counting, titles), and
 * answers each model turn with the next step of the script. A wire module (`wire/<api>.ts`) knows one model API:
 * how to tell a turn from a side request, how to read what was sent, how to stream a reply.
 */
import type { Server } from "bun";

/** One tool call the scripted model makes. `id` defaults to a fresh one. */
export type ToolCallSpec = { name: string; input: Record<string, unknown>; id?: string };

/** What the model answers in one turn; the wire renders it in its own stream format. */
export type Reply = {
  text?: string;
  tools?: ToolCallSpec[];
  /** Reported prompt size (drives automatic compaction). */
  inputTokens?: number;
  outputTokens?: number;
  /** HTTP error instead of a reply (a failing model call). */
  error?: { status: number; message: string };
};

export type LoggedRequest = {
  index: number;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
  /** What the wire classified it as. */
  kind: RequestKind;
  /** The lane that answered it (null: the main conversation or a side request). */
  lane: string | null;
  /** Set once the reply was handed back. */
  answered: boolean;
  at: string;
};

/** `turn`: a conversation request the script answers; `compact`: the harness asks for its summary; `side`: the rest. */
export type RequestKind = "turn" | "compact" | "side";

/**
 * A script step: a fixed reply, or one computed from the request (to react to what the harness sent), possibly
 * later (a sub-agent that answers only once the main conversation got somewhere: the order of concurrent
 * conversations is then the script's, not the machine's load).
 */
export type Step = Reply | ((request: LoggedRequest, wire: Wire) => Reply | Promise<Reply>);

export type Wire = {
  name: string;
  classify(path: string, body: unknown): RequestKind;
  /** The answer to a side request (token counting, a title, a quota probe). */
  side(path: string, body: unknown): Response;
  /** Renders a reply in the wire's format (streaming when the request asked for it). */
  /** `path`: the request's path (Gemini answers `:generateContent` in JSON and `:streamGenerateContent` in SSE). */
  render(reply: Reply, body: unknown, counter: () => number, path: string): Response;
  /** All text the request carries to the model (system, messages, tool results), for searches. */
  sentText(body: unknown): string;
  /** The text of the newest message the harness sent (the last user/tool turn). */
  lastSentText(body: unknown): string;
  /** The text of the conversation's first message (tells a sub-agent's conversation from the main one). */
  firstSentText(body: unknown): string;
};

/** A step that answers `reply` and hands the request it answered to `seen` (to look at what the model was sent). */
export function capture(seen: (request: LoggedRequest) => void, reply: Reply): Step {
  return (request) => {
    seen(request);
    return reply;
  };
}

/**
 * A conversation of its own (a sub-agent): requests the predicate claims take this lane's steps, so concurrent
 * conversations never take each other's replies.
 */
export type Lane = { name: string; match: (request: LoggedRequest, wire: Wire) => boolean; turns: Step[] };

export type ScriptOptions = {
  /** Steps answering `turn` requests of the main conversation, in order. */
  turns: Step[];
  lanes?: Lane[];
  /** Steps answering `compact` requests (default: a fixed summary). */
  compactions?: Step[];
  /** What a turn past the end of the script gets (a step: it may answer by what the harness sent). */
  fallback?: Step;
};

export class ModelServer {
  readonly requests: LoggedRequest[] = [];
  readonly url: string;
  #server: Server<undefined>;
  #turns: Step[];
  #lanes: Lane[];
  #compactions: Step[];
  #fallback: Step;
  #ids = 0;
  /** Turn requests the script had no step for (the fallback answered them). */
  unscripted = 0;

  constructor(
    readonly wire: Wire,
    script: ScriptOptions,
  ) {
    this.#turns = [...script.turns];
    this.#lanes = [...(script.lanes ?? [])];
    this.#compactions = [...(script.compactions ?? [])];
    this.#fallback = script.fallback ?? DEFAULT_FALLBACK;
    this.#server = Bun.serve({ hostname: "127.0.0.1", port: 0, idleTimeout: 255, fetch: (request) => this.#handle(request) });
    this.url = `http://127.0.0.1:${this.#server.port}`;
  }

  /** Adds steps for the next harness run (one server per scenario, many runs). */
  script(script: ScriptOptions): void {
    this.#turns.push(...script.turns);
    this.#lanes.push(...(script.lanes ?? []));
    this.#compactions.push(...(script.compactions ?? []));
    if (script.fallback) this.#fallback = script.fallback;
  }

  async #handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const raw = await request.text();
    let body: unknown = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      body = raw;
    }
    const kind = this.wire.classify(url.pathname, body);
    const logged: LoggedRequest = {
      index: this.requests.length,
      method: request.method,
      path: url.pathname + url.search,
      headers: Object.fromEntries(request.headers),
      body,
      kind,
      lane: null,
      answered: false,
      at: new Date().toISOString(),
    };
    this.requests.push(logged);
    if (kind === "side") {
      logged.answered = true;
      return this.wire.side(url.pathname, body);
    }
    const lane = kind === "turn" ? this.#lanes.find((candidate) => candidate.match(logged, this.wire)) : undefined;
    if (lane) logged.lane = lane.name;
    const queue = kind === "compact" ? this.#compactions : (lane?.turns ?? this.#turns);
    let step = queue.shift();
    if (step === undefined) {
      if (kind === "turn" && this.#fallback === DEFAULT_FALLBACK) this.unscripted++;
      step = kind === "compact" ? { text: DEFAULT_SUMMARY } : this.#fallback;
    }
    const reply = typeof step === "function" ? await step(logged, this.wire) : step;
    logged.answered = true;
    if (reply.error) return Response.json({ type: "error", error: { type: "api_error", message: reply.error.message } }, { status: reply.error.status });
    return this.wire.render(reply, body, () => ++this.#ids, url.pathname);
  }

  /** Model requests (turns and compactions), oldest first. */
  /** Resolves once a model request satisfies `test` and has been answered (polling; rejects after `timeoutMs`). */
  async answered(test: (request: LoggedRequest) => boolean, timeoutMs = 120_000): Promise<LoggedRequest> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.requests.find((request) => request.answered && test(request));
      if (found) return found;
      if (Date.now() > deadline) throw new Error("the awaited request never came");
      await Bun.sleep(20);
    }
  }

  modelRequests(): LoggedRequest[] {
    return this.requests.filter((request) => request.kind !== "side");
  }

  /** The model requests whose content holds `text`. */
  sentContaining(text: string): LoggedRequest[] {
    return this.modelRequests().filter((request) => this.wire.sentText(request.body).includes(text));
  }

  stop(): void {
    this.#server.stop(true);
  }
}

/** A compaction reply in the form Claude Code asks for (a `<summary>` block; other harnesses take the text). */
export const DEFAULT_SUMMARY = "<summary>The user asked for changes to the cart; the work is in progress.</summary>";
/** Answers a turn nobody scripted (counted in `unscripted`, so a scenario can insist there was none). */
const DEFAULT_FALLBACK: Reply = { text: "Done." };
