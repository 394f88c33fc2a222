/** A command's bad input: exit code 2, nothing changed (server/run-command.ts). */
export class UsageError extends Error {}
