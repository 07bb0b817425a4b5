/** Running the real `aioson dashboard` in tests: start it, read the address it prints, talk to it, stop it. */
import { join } from "node:path";
import { BINARY, testEnv } from "../helpers.ts";

export type RunningDashboard = {
  url: string;
  origin: string;
  port: number;
  token: string;
  /** The Cookie header a browser holds after opening `url`. */
  cookie: string;
  proc: ReturnType<typeof Bun.spawn>;
  stdout: () => string;
  stop: () => Promise<number>;
};

export type StartOptions = { home: string; env?: Record<string, string | undefined>; cwd?: string };

/** Starts `aioson dashboard <args>` (with --no-open unless given otherwise) and waits for its line. */
export async function startDashboard(args: readonly string[], options: StartOptions): Promise<RunningDashboard> {
  const proc = Bun.spawn([BINARY, "dashboard", ...args], { cwd: options.cwd ?? options.home, env: testEnv(options.home, options.env), stdout: "pipe", stderr: "pipe" });
  const reader = proc.stdout.getReader();
  let text = "";
  const deadline = Date.now() + 15_000;
  // One line, or with --json one pretty-printed object.
  const complete = () => (text.startsWith("{") ? text.includes("}\n") : text.includes("\n"));
  while (!complete()) {
    if (Date.now() > deadline) throw new Error(`the dashboard printed no line: ${text}`);
    const { value, done } = await reader.read();
    if (done) throw new Error(`the dashboard exited: ${text}${await new Response(proc.stderr).text()}`);
    text += new TextDecoder().decode(value);
  }
  const url = text.startsWith("{") ? (JSON.parse(text.slice(0, text.indexOf("}\n") + 1)) as { url: string }).url : (text.split("\n")[0] as string).replace(/^Dashboard: /, "");
  const parsed = new URL(url);
  const port = Number(parsed.port);
  const token = parsed.searchParams.get("token") ?? "";
  let rest = "";
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      rest += new TextDecoder().decode(value);
    }
  })();
  return {
    url,
    origin: parsed.origin,
    port,
    token,
    cookie: `aioson_dashboard_${port}=${token}`,
    proc,
    stdout: () => text + rest,
    stop: async () => {
      proc.kill("SIGINT");
      return await proc.exited;
    },
  };
}

/** A GET with the run's cookie (and whatever else is given). */
export function get(dashboard: RunningDashboard, path: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${dashboard.origin}${path}`, { headers: { Cookie: dashboard.cookie, ...headers }, redirect: "manual" });
}

export async function getJson<T>(dashboard: RunningDashboard, path: string): Promise<T> {
  const response = await get(dashboard, path);
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A raw HTTP/1.1 request, for headers fetch() will not let a test set (Host). */
export async function rawRequest(port: number, lines: readonly string[]): Promise<{ status: number; head: string; body: string }> {
  const chunks: string[] = [];
  await new Promise<void>((resolve, reject) => {
    void Bun.connect({
      hostname: "127.0.0.1",
      port,
      socket: {
        open(socket) {
          socket.write(`${lines.join("\r\n")}\r\nConnection: close\r\n\r\n`);
        },
        data(_socket, data) {
          chunks.push(new TextDecoder().decode(data));
        },
        close() {
          resolve();
        },
        error(_socket, error) {
          reject(error);
        },
      },
    }).catch(reject);
  });
  const text = chunks.join("");
  const [head = "", body = ""] = text.split("\r\n\r\n");
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), head, body };
}

export function writePayload(project: string, session: string, file: string): string {
  return JSON.stringify({ hook_event_name: "PostToolUse", session_id: session, tool_name: "Write", tool_input: { file_path: join(project, file), content: "x" } });
}
