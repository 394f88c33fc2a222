import { installDatabase } from "@/lib/db";
import { registerAllJobHandlers } from "@/lib/job-handlers";
import { databaseOptions } from "@/lib/env";
import { sandboxEmulatorRunning, stopSandboxEmulator } from "@/lib/providers/stripe/sandbox-emulator";
import { openPreparedDatabase } from "./embedded";
import { commandFailure, executeCommand, type CommandOutput, type ParsedCommand } from "./run-command";

export { parseCommand } from "./run-command";

/** Runs a parsed command in this process, on the configured database (the caller owns DATA_DIR). */
export async function runCommandHere(parsed: ParsedCommand): Promise<CommandOutput> {
  let handle;
  try {
    handle = await openPreparedDatabase(databaseOptions());
    installDatabase(handle);
    // kassa trigger runs the business's due jobs (an expiry, a plan's set-up) when no server does.
    registerAllJobHandlers();
    return await executeCommand(parsed, handle.db);
  } catch (error) {
    return commandFailure(parsed, error);
  } finally {
    // A command that paid in the sandbox (kassa trigger) started this process's Stripe emulator:
    // stopped, or the process would not exit.
    if (sandboxEmulatorRunning()) await stopSandboxEmulator();
    await handle?.close();
  }
}
