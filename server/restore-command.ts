import { dataDir, env } from "@/lib/env";
import { postgresRestoreAdvice } from "./backup-advice";
import { currentOwner, pause, tryLock } from "./data-dir-lock";
import { restoreDatabase, RestoreRefusedError } from "./restore-database";
import { UsageError } from "./commands";
import { commandFailure, parseCommand, type CommandOutput } from "./run-command";

const lockTries = 20;

/**
 * `kassa restore` runs in the CLI's own process, never in a server: it writes a whole data
 * directory, which only a process holding DATA_DIR's lock with no server on it may do
 * (decision 0007). A running server, another command, or an existing database: refused.
 */
export async function restoreCommand(argv: string[]): Promise<CommandOutput> {
  const parsed = parseCommand(argv);
  if ("exitCode" in parsed) return parsed;
  const refuse = (message: string) => commandFailure(parsed, new RestoreRefusedError(message));
  if (env().DATABASE_URL) return refuse(postgresRestoreAdvice);
  const from = parsed.values.from;
  if (typeof from !== "string" || from === "")
    return commandFailure(parsed, new UsageError("--from is required"));
  const keyFile = typeof parsed.values["key-file"] === "string" ? parsed.values["key-file"] : undefined;

  for (let i = 0; i < lockTries; i++) {
    const owner = await currentOwner();
    if (owner?.role === "server")
      return refuse(
        `a Kassa server (pid ${owner.pid}) is running on ${dataDir()}: stop it before restoring, or restore into another DATA_DIR`,
      );
    const attempt = await tryLock({ pid: process.pid, role: "cli" });
    if ("lock" in attempt) {
      try {
        const summary = await restoreDatabase(from, keyFile);
        const text = [
          `Restored ${summary.from} into ${summary.data_dir}: ${summary.businesses} businesses.`,
          `Ledger verify: ${summary.ledger_ok ? "OK" : "PROBLEMS (run npx kassa ledger verify)"}.`,
          `Secrets open with ${summary.encryption_key}. Start the server on this DATA_DIR.`,
        ].join("\n");
        return { stdout: (parsed.json ? JSON.stringify(summary) : text) + "\n", stderr: "", exitCode: 0 };
      } catch (error) {
        return commandFailure(parsed, error);
      } finally {
        attempt.lock.release();
      }
    }
    if (attempt.holder)
      return refuse(`another kassa command (pid ${attempt.holder.pid}) is using ${dataDir()}`);
    await pause();
  }
  return refuse(`${dataDir()} stayed busy`);
}
