import type { BenchCase } from "./types.ts";

function aioson(binary: string, args: string[]): void {
  const result = Bun.spawnSync([binary, ...args], { stdout: "ignore", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`bench setup failed: aioson ${args.join(" ")}: ${result.stderr.toString()}`);
}

const cases: BenchCase[] = [
  {
    name: "runtime:emit into a live session",
    args: ["runtime:emit", "{project}", "--agent=dev", "--type=note", "--summary=bench note", "--refs=src/a.ts"],
    setup: (project, binary) => aioson(binary, ["live:start", project, "--tool=claude", "--agent=dev", "--no-launch"]),
    maxRatio: 2,
  },
  {
    name: "session:guard --once (session open)",
    args: ["session:guard", "{project}", "--once", "--json"],
    setup: (project, binary) => aioson(binary, ["session:guard", project, "--once", "--json"]),
    maxRatio: 2.5,
  },
  {
    name: "runtime:status --json",
    args: ["runtime:status", "{project}", "--json"],
    setup: (project, binary) => {
      aioson(binary, ["live:start", project, "--tool=claude", "--agent=dev", "--no-launch"]);
      for (let i = 0; i < 20; i++) aioson(binary, ["runtime:emit", project, "--agent=dev", `--summary=event ${i}`]);
    },
    maxRatio: 3,
  },
];

export default cases;
