// npx kassa <command> [options]: automation contract of docs/automation.md. `--json` prints one JSON object.
// The commands are in server/commands.ts; where they run is decided by server/run-cli-command.ts.
import { describeError } from "./describe-error";
import { cliFailure, runCliCommand } from "./run-cli-command";

const argv = process.argv.slice(2);
// Errors outside any command (environment, DATA_DIR's permissions) are reported like a command's.
const output = await runCliCommand(argv).catch((error: unknown) => cliFailure(argv, describeError(error)));
if (output.stdout) process.stdout.write(output.stdout);
if (output.stderr) process.stderr.write(output.stderr);
process.exitCode = output.exitCode;
