import fs from "node:fs";
import path from "node:path";
import { count } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses } from "@/db/schema";
import { decrypt } from "@/lib/crypto";
import { databaseOptions, dataDir, env } from "@/lib/env";
import { verifyLedger } from "@/lib/ledger/verify-ledger";
import { openPreparedDatabase } from "./embedded";

/** A restore that would lose or mix data, or could not work: nothing was changed. */
export class RestoreRefusedError extends Error {}

export type RestoreSummary = {
  data_dir: string;
  from: string;
  businesses: number;
  ledger_ok: boolean;
  encryption_key: "ENCRYPTION_KEY" | "DATA_DIR/encryption.key";
};

const gzipMagic = [0x1f, 0x8b];

function sameKey(a: string, b: string): boolean {
  return fs.readFileSync(a, "utf8").trim() === fs.readFileSync(b, "utf8").trim();
}

/**
 * Fills DATA_DIR's embedded database from a `kassa backup` file. The caller holds DATA_DIR's lock
 * and has made sure no server runs on it. Only into a fresh or emptied DATA_DIR: an existing
 * database is never overwritten. The backup holds the secrets sealed, not the key that opens them
 * (decision 0024): the key must be ENCRYPTION_KEY, DATA_DIR/encryption.key, or `keyFile` (copied
 * there); the restore checks that it opens the backup's secrets. On any failure DATA_DIR is left
 * as it was found.
 */
export async function restoreDatabase(from: string, keyFile?: string): Promise<RestoreSummary> {
  const options = databaseOptions();
  if (options.kind !== "pglite" || !options.dataDir)
    throw new RestoreRefusedError("no embedded database configured");
  const target = options.dataDir;
  const source = path.resolve(from);
  refuseUnusableSource(source, target);

  const keyPath = path.join(dataDir(), "encryption.key");
  const copiedKey = provideKey(keyFile, keyPath);

  const createdTarget = !fs.existsSync(target);
  let handle: Awaited<ReturnType<typeof openPreparedDatabase>> | undefined;
  try {
    const loadDataDir = new Blob([fs.readFileSync(source)]);
    try {
      handle = await openPreparedDatabase({ kind: "pglite", dataDir: target, loadDataDir });
    } catch (error) {
      throw new RestoreRefusedError(
        `${source} could not be loaded as a kassa backup: ${(error as Error).message}`,
      );
    }
    await refuseWrongKey(handle.db);
    const [{ total }] = (await handle.db.select({ total: count() }).from(businesses)) as [{ total: number }];
    const ledger = await verifyLedger(handle.db);
    await handle.close();
    handle = undefined;
    return {
      data_dir: dataDir(),
      from: source,
      businesses: Number(total),
      ledger_ok: ledger.ok,
      encryption_key: env().ENCRYPTION_KEY ? "ENCRYPTION_KEY" : "DATA_DIR/encryption.key",
    };
  } catch (error) {
    await handle?.close().catch(() => {});
    if (createdTarget) fs.rmSync(target, { recursive: true, force: true });
    else
      for (const entry of fs.readdirSync(target))
        fs.rmSync(path.join(target, entry), { recursive: true, force: true });
    if (copiedKey) fs.rmSync(keyPath, { force: true });
    throw error;
  }
}

/** The backup must be readable and gzipped, and the target fresh or emptied. */
function refuseUnusableSource(source: string, target: string): void {
  let head: Buffer;
  try {
    head = fs.readFileSync(source).subarray(0, 2);
  } catch (error) {
    throw new RestoreRefusedError(`cannot read ${source}: ${(error as Error).message}`);
  }
  if (!gzipMagic.every((b, i) => head[i] === b))
    throw new RestoreRefusedError(`${source} is not a kassa backup (not a gzipped data directory)`);
  if (fs.existsSync(target) && fs.readdirSync(target).length > 0)
    throw new RestoreRefusedError(
      `${target} already holds a database; restore only into a fresh or emptied DATA_DIR (move ${target} aside first)`,
    );
}

/** Makes sure one encryption key is there, copying `keyFile` to `keyPath`; true when it copied it. */
function provideKey(keyFile: string | undefined, keyPath: string): boolean {
  if (keyFile) {
    const givenKey = path.resolve(keyFile);
    if (!fs.existsSync(givenKey)) throw new RestoreRefusedError(`--key-file ${givenKey} does not exist`);
    if (env().ENCRYPTION_KEY)
      throw new RestoreRefusedError("both ENCRYPTION_KEY and --key-file are given: use one of them");
    if (fs.existsSync(keyPath)) {
      if (!sameKey(keyPath, givenKey))
        throw new RestoreRefusedError(`${keyPath} exists and differs from --key-file ${givenKey}`);
      return false;
    }
    fs.mkdirSync(dataDir(), { recursive: true });
    fs.copyFileSync(givenKey, keyPath, fs.constants.COPYFILE_EXCL);
    fs.chmodSync(keyPath, 0o600);
    return true;
  }
  if (!env().ENCRYPTION_KEY && !fs.existsSync(keyPath)) {
    throw new RestoreRefusedError(
      "no encryption key: the backup's secrets are sealed with the key of the instance it came from; pass --key-file (its DATA_DIR/encryption.key), set ENCRYPTION_KEY, or put the key in DATA_DIR/encryption.key",
    );
  }
  return false;
}

/** The key must open the restored secrets (tried on one business's sealed webhook token). */
async function refuseWrongKey(db: Db): Promise<void> {
  const [sealed] = await db.select({ token: businesses.webhookTokenEnc }).from(businesses).limit(1);
  if (!sealed) return;
  try {
    decrypt(sealed.token);
  } catch {
    throw new RestoreRefusedError(
      "the encryption key does not open this backup's secrets: use the key of the instance the backup came from",
    );
  }
}
