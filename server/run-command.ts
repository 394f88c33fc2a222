import { parseArgs } from "node:util";
import type { Db } from "@/db/client";
import { DomainError } from "@/lib/errors";
import { commands, UsageError, type Command, type Values } from "./commands";
import { describeError } from "./describe-error";

/** What a command prints and how it exits, wherever it ran. */
export type CommandOutput = { stdout: string; stderr: string; exitCode: number };
export type ParsedCommand = { command: Command; values: Values; json: boolean };

function helpText(): string {
  return ["Usage:", ...Object.values(commands).map((c) => `  npx ${c.usage}`)].join("\n");
}

function fail(json: boolean, message: string, exitCode: number): CommandOutput {
  return json
    ? { stdout: JSON.stringify({ error: message }) + "\n", stderr: "", exitCode }
    : { stdout: "", stderr: `${message}\n`, exitCode };
}

/** The command and its options, or the output when there is nothing to run (help, usage error). */
export function parseCommand(argv: string[]): ParsedCommand | CommandOutput {
  const json = argv.includes("--json");
  const name = [argv[0], argv[1]].join(" ");
  const command = commands[name] ?? commands[argv[0] ?? ""];
  if (argv.length === 0 || argv.includes("--help") || argv.includes("-h"))
    return { stdout: helpText() + "\n", stderr: "", exitCode: 0 };
  if (!command) return fail(json, `Unknown command "${argv.filter((a) => !a.startsWith("-")).join(" ")}".\n${helpText()}`, 2);
  const rest = argv.slice(commands[name] ? 2 : 1);
  try {
    const { values, positionals } = parseArgs({
      args: rest,
      options: { ...command.options, json: { type: "boolean" } },
      strict: true,
      allowPositionals: command.positional !== undefined,
    });
    if (command.positional === undefined) return { command, values: values as Values, json };
    if (positionals.length > 1) throw new Error(`one ${command.positional} only, not "${positionals.join(" ")}"`);
    return { command, values: { ...(values as Values), [command.positional]: positionals[0] }, json };
  } catch (error) {
    return fail(json, `${(error as Error).message}\nUsage: npx ${command.usage}`, 2);
  }
}

/** Exit code 2 for usage, 1 for everything else; never throws. */
export function commandFailure(parsed: ParsedCommand, error: unknown): CommandOutput {
  if (error instanceof UsageError) return fail(parsed.json, `${error.message}\nUsage: npx ${parsed.command.usage}`, 2);
  if (error instanceof DomainError) return fail(parsed.json, error.message, 1);
  return fail(parsed.json, `Failed: ${describeError(error)}`, 1);
}

export async function executeCommand(parsed: ParsedCommand, db: Db): Promise<CommandOutput> {
  try {
    const result = await parsed.command.run(db, parsed.values);
    const stdout = (parsed.json ? JSON.stringify(result.json) : result.text) + "\n";
    return { stdout, stderr: "", exitCode: result.exitCode ?? 0 };
  } catch (error) {
    return commandFailure(parsed, error);
  }
}

/** Parses and runs `argv` against `db`: what the server does for a CLI command. */
export async function runCommand(argv: string[], db: Db): Promise<CommandOutput> {
  const parsed = parseCommand(argv);
  return "exitCode" in parsed ? parsed : executeCommand(parsed, db);
}
