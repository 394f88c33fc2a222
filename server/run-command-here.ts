import { installDatabase } from "@/lib/db";
import { databaseOptions } from "@/lib/env";
import { openPreparedDatabase } from "./embedded";
import { commandFailure, executeCommand, type CommandOutput, type ParsedCommand } from "./run-command";

export { parseCommand } from "./run-command";

/** Runs a parsed command in this process, on the configured database (the caller owns DATA_DIR). */
export async function runCommandHere(parsed: ParsedCommand): Promise<CommandOutput> {
  let handle;
  try {
    handle = await openPreparedDatabase(databaseOptions());
    installDatabase(handle);
    return await executeCommand(parsed, handle.db);
  } catch (error) {
    return commandFailure(parsed, error);
  } finally {
    await handle?.close();
  }
}
