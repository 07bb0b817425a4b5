import { defineCommand } from "../cli/command.ts";
import { CommandError, printJson } from "../core/output.ts";
import { human } from "../human/output.ts";
import { isProjectRoot } from "../core/project-root.ts";
import { textOption, userRoot } from "../runtime/args.ts";

/** A port nothing else is likely to use; when it is taken, the dashboard picks a free one. */
const DEFAULT_PORT = 7433;
const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);

function port(value: unknown): number {
  const text = textOption(value);
  if (text === null) return DEFAULT_PORT;
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65_535) throw new CommandError(`--port must be a number from 0 to 65535 (got ${text}).`);
  return Number(text);
}

function host(value: unknown): string {
  const text = textOption(value) ?? "127.0.0.1";
  if (!/^[A-Za-z0-9.:-]{1,253}$/.test(text)) throw new CommandError(`--host must be a host name or an IP address (got ${text}).`);
  return text;
}

export default defineCommand({
  meta: { name: "dashboard", description: "Every agent session on this machine, live in the browser" },
  args: {
    dir: { type: "positional", required: false, description: "Show only this project (default: every project with a store)" },
    port: { type: "string", description: `Port to listen on (default ${DEFAULT_PORT}; a free one when taken)` },
    host: { type: "string", description: "Address to listen on (default 127.0.0.1)" },
    open: { type: "boolean", default: true, description: "Open the browser (--no-open: only print the address)" },
    json: { type: "boolean", alias: "j", description: "Print {\"url\": ...} instead of the line" },
  },
  async run({ args }) {
    const root = typeof args.dir === "string" && args.dir.trim() !== "" ? userRoot(args.dir) : null;
    if (root !== null && !isProjectRoot(root)) throw new CommandError(`Not an AIOSON project: ${root} (run aioson init there first).`);
    const options = { root, host: host(args.host), port: port(args.port) };
    const { startDashboard } = await import("../dashboard/server.ts");
    const dashboard = await startDashboard(options);
    if (args.json === true) printJson({ url: dashboard.url });
    else human().info(`Dashboard: ${dashboard.url}`);
    if (!LOOPBACK.has(options.host)) human().warn(`Warning: listening on ${options.host}: other machines can reach this address (the token is still required; the traffic is not encrypted).`, "stderr");
    if (args.open !== false) {
      const { openBrowser } = await import("../dashboard/browser.ts");
      openBrowser(dashboard.url, root);
    }
    await new Promise<void>((resolve) => {
      const stop = (): void => {
        process.off("SIGINT", stop);
        process.off("SIGTERM", stop);
        dashboard.stop();
        resolve();
      };
      process.on("SIGINT", stop);
      process.on("SIGTERM", stop);
    });
  },
});
