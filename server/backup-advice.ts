import { resolve as pathResolve } from "node:path";
// What `kassa backup` and `kassa restore` answer with DATABASE_URL: PostgreSQL has its own tools,
// which also copy a running database consistently (docs/deploy.md, "Backups").
export const postgresBackupAdvice =
  'kassa backup copies the embedded database; this instance uses PostgreSQL (DATABASE_URL): back it up with `pg_dump -Fc "$DATABASE_URL" -f kassa.dump` (see docs/deploy.md)';

export const postgresRestoreAdvice =
  'kassa restore fills an embedded database; this instance uses PostgreSQL (DATABASE_URL): restore with `pg_restore --clean --if-exists -d "$DATABASE_URL" kassa.dump` (see docs/deploy.md)';

const pathOptions: Record<string, string> = { backup: "--out", restore: "--from" };

/**
 * The file option of `backup`/`restore` made absolute from the CLI's working directory: the
 * running server, whose directory may differ, writes the backup (decision 0007).
 */
export function withAbsolutePaths(argv: string[], cwd = process.cwd()): string[] {
  const option = pathOptions[argv[0] ?? ""];
  if (!option) return argv;
  const resolve = (value: string) => (value === "" ? value : pathResolve(cwd, value));
  return argv.map((arg, i) => {
    if (arg.startsWith(`${option}=`)) return `${option}=${resolve(arg.slice(option.length + 1))}`;
    if (argv[i - 1] === option && !arg.startsWith("--")) return resolve(arg);
    return arg;
  });
}
