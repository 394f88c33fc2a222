// Which PostgreSQL the benchmark uses: DATABASE_URL as given (used as is, never dropped), else
// postgres://postgres@127.0.0.1:5432/kassa_bench, dropped and created afresh on each run when
// the server is reachable. Neither: the PostgreSQL cases are skipped with a note.
import postgres from "postgres";

export const defaultBenchUrl = "postgres://postgres@127.0.0.1:5432/kassa_bench";

export type PostgresTarget = { url: string; source: "DATABASE_URL" | "default" } | { skipped: string };

export async function postgresTarget(): Promise<PostgresTarget> {
  const given = process.env.DATABASE_URL;
  if (given) {
    try {
      await probe(given);
      return { url: given, source: "DATABASE_URL" };
    } catch (error) {
      throw new Error(`DATABASE_URL is set but unreachable: ${(error as Error).message}`);
    }
  }
  const admin = new URL(defaultBenchUrl);
  admin.pathname = "/postgres";
  try {
    const sql = postgres(admin.toString(), { max: 1, connect_timeout: 3, onnotice: () => {} });
    try {
      await sql`drop database if exists kassa_bench with (force)`;
      await sql`create database kassa_bench`;
    } finally {
      await sql.end();
    }
    return { url: defaultBenchUrl, source: "default" };
  } catch (error) {
    return {
      skipped: `no DATABASE_URL, and ${admin.host} could not give a fresh kassa_bench database (${(error as Error).message})`,
    };
  }
}

async function probe(url: string) {
  const sql = postgres(url, { max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    await sql`select 1`;
  } finally {
    await sql.end();
  }
}
