import { spawnSync } from "node:child_process";
import path from "node:path";
import { median } from "./load";

export type CliStart = { medianMs: number; baselineMs: number; runs: number };

function timed(command: string[], env: NodeJS.ProcessEnv): number {
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, command, { env, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`${command.join(" ")} exited ${run.status}: ${run.stderr}${run.stdout}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/**
 * A CLI command's start while the server runs (issue 27): `npx kassa business list --json` against
 * the server that owns `dataDir` (it answers over its socket), whole process, median of `runs`;
 * beside it the same machine's bare `node -e 0`.
 */
export function cliStart(root: string, dataDir: string, runs = 7): CliStart {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "error" };
  delete env.DATABASE_URL;
  const bin = path.join(root, "bin", "kassa.mjs");
  timed([bin, "business", "list", "--json"], env); // the loader's first transform fills its cache
  const times: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < runs; i++) {
    times.push(timed([bin, "business", "list", "--json"], env));
    bare.push(timed(["-e", "0"], env));
  }
  return { medianMs: median(times), baselineMs: median(bare), runs };
}
