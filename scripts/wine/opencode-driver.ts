/**
 * Loads the generated OpenCode plugin inside Bun for Windows, as OpenCode 1.x does (compiled to an .exe by
 * .ci/steps/wine-smoke.sh and run under Wine by scripts/wine/smoke.ts), and makes it record one tool call:
 *   opencode-driver.exe <plugin.js> <project> <PATH>
 * PATH replaces the driver's own, so the smoke decides which folders the plugin may find aioson in.
 */
type Hook = (input: Record<string, unknown>, output: Record<string, unknown>) => Promise<void>;
type Plugin = (ctx: { directory: string; worktree: string }) => Promise<Record<string, Hook | (() => Promise<void>)>>;

const [file, project, path] = process.argv.slice(2);
if (!file || !project || path === undefined) throw new Error("usage: opencode-driver.exe <plugin.js> <project> <PATH>");
process.env.PATH = path;
const { AiosonPlugin } = (await import(file)) as { AiosonPlugin: Plugin };
const hooks = await AiosonPlugin({ directory: project, worktree: project });
const after = hooks["tool.execute.after"] as Hook;
await after({ tool: "write", sessionID: "wine-smoke", callID: "c1", args: { filePath: "a.txt" } }, { output: "", metadata: {} });
await (hooks.dispose as () => Promise<void>)();
console.log("driver done");

export {};
