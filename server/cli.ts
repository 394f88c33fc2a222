// npx kassa <command> [options]: automation contract of docs/automation.md. `--json` prints one JSON object.
// The commands are in server/commands.ts; where they run is decided by server/run-cli-command.ts.
import { describeError } from "./describe-error";
import { cliFailure, runCliCommand } from "./run-cli-command";

const argv = process.argv.slice(2);
if (argv[0] === "listen" && !argv.includes("--help") && !argv.includes("-h")) {
  // An HTTP client of a (possibly remote) Kassa: no database, no server socket.
  const { runListenCli } = await import("./listen-command");
  const { baseUrl } = await import("@/lib/env");
  process.exitCode = await runListenCli(argv.slice(1), { apiBase: baseUrl(), key: process.env.KASSA_SECRET_KEY });
} else {
  // Errors outside any command (environment, DATA_DIR's permissions) are reported like a command's.
  const output = await runCliCommand(argv).catch((error: unknown) => cliFailure(argv, describeError(error)));
  if (output.stdout) process.stdout.write(output.stdout);
  if (output.stderr) process.stderr.write(output.stderr);
  process.exitCode = output.exitCode;
}
