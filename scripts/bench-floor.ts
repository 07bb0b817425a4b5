/**
 * The benchmark's floor: the least a compiled Bun hook can do (read the payload on stdin, print `{}`).
 * scripts/bench.ts compiles it with the same flags as aioson and compares every case with it.
 */
import { readFileSync } from "node:fs";

function main(): void {
  readFileSync(0);
  console.log("{}");
}

main();
