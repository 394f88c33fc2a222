import { dataDir, env } from "@/lib/env";
import { postgresBackupAdvice, withAbsolutePaths } from "./backup-advice";
import { requestCommand, ServerNotListening } from "./command-client";
import { currentOwner, pause, tryLock } from "./data-dir-lock";
import type { CommandOutput } from "./run-command";

const waitForDataDirMs = 5 * 60_000;
const waitForServerMs = 60_000;

// The commands and the database drivers load only to run a command here: a command the server
// runs costs this process no more than a socket.
const here = () => import("./run-command-here");

/** Exit code 1, and with `--json` the error as stdout's one JSON object, as for any failed command. */
export function cliFailure(argv: string[], message: string): CommandOutput {
  return argv.includes("--json")
    ? { stdout: JSON.stringify({ error: `Failed: ${message}` }) + "\n", stderr: "", exitCode: 1 }
    : { stdout: "", stderr: `Failed: ${message}\n`, exitCode: 1 };
}

/**
 * Runs a CLI command where it belongs (decision 0007): with DATABASE_URL, here (PostgreSQL
 * isolates concurrent clients); with the embedded database, in the server that owns DATA_DIR, or
 * here under DATA_DIR's lock when no server runs. Commands waiting for the lock take turns.
 */
export async function runCliCommand(rawArgv: string[]): Promise<CommandOutput> {
  const argv = withAbsolutePaths(rawArgv);
  // Restore writes a whole data directory: only here, never through a server.
  if (argv[0] === "restore") return (await import("./restore-command")).restoreCommand(argv);
  if (env().DATABASE_URL) {
    if (argv[0] === "backup") return cliFailure(argv, postgresBackupAdvice);
    const { parseCommand, runCommandHere } = await here();
    const parsed = parseCommand(argv);
    return "exitCode" in parsed ? parsed : runCommandHere(parsed);
  }
  const deadline = Date.now() + waitForDataDirMs;
  let silentServerSince: number | undefined;
  for (;;) {
    const owner = await currentOwner();
    if (owner?.role === "server" && owner.socket) {
      try {
        return await requestCommand(owner.socket, argv);
      } catch (error) {
        if (!(error instanceof ServerNotListening)) return cliFailure(argv, (error as Error).message);
      }
      // Starting (migrating) or stopping: its lock says it lives, its commands are not served yet.
      silentServerSince ??= Date.now();
      if (Date.now() - silentServerSince > waitForServerMs)
        return cliFailure(
          argv,
          `the Kassa server (pid ${owner.pid}) holding ${dataDir()} does not answer on ${owner.socket}; if no Kassa server runs there, delete ${dataDir()}/pglite.lock`,
        );
    } else {
      silentServerSince = undefined;
      const { parseCommand, runCommandHere } = await here();
      const parsed = parseCommand(argv);
      if ("exitCode" in parsed) return parsed;
      const attempt = await tryLock({ pid: process.pid, role: "cli" });
      if ("lock" in attempt) {
        try {
          return await runCommandHere(parsed);
        } finally {
          attempt.lock.release();
        }
      }
    }
    if (Date.now() > deadline) return cliFailure(argv, `${dataDir()} stayed busy for ${waitForDataDirMs / 1000} s`);
    await pause();
  }
}
