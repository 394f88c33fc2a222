/**
 * Where the emulator keeps its state between runs. Documents are JSON text. An adapter stores
 * three things: accounts (by sha256 of their secret key, never the key), their objects (one row
 * each, with their creation order) and their other fields (one row per field, or per entry of a
 * Map field). `save` must apply all its changes atomically (one database transaction).
 */
export interface EmulatorPersistence {
  load(): Promise<StoredAccount[]>;
  save(changes: AccountChanges[]): Promise<void>;
  /**
   * Present when several processes share the storage: each operation on an account then runs with
   * the account locked and reloads it first when another process changed it (see SharedStorage).
   */
  shared?: SharedStorage;
}

/**
 * Storage shared by several emulator processes. Every account row carries a version, bumped by
 * each write: a process whose copy of an account has an older version reloads the account.
 */
export interface SharedStorage {
  /**
   * The account of this key digest as stored (one statement, so one consistent snapshot): its
   * version, and its rows only when that version is not `known`. Undefined when it is not stored.
   */
  check(keyDigest: string, known: number): Promise<StoredAccount | undefined>;
  /** The key digest of a stored account id (to open an account known only by id, e.g. a 3DS page). */
  digestOf(accountId: string): Promise<string | undefined>;
  /** Runs `work` in one transaction, in which the account is locked once `lock` or `create` returned. */
  transaction<T>(work: (tx: SharedTransaction) => Promise<T>): Promise<T>;
}

export interface SharedTransaction {
  /** Locks the account and bumps its version: the new version, undefined when it is not stored. */
  lock(keyDigest: string): Promise<{ id: string; version: number } | undefined>;
  /** Stores a new account at version 1 (locked); false when another process stored this key first. */
  create(keyDigest: string, id: string): Promise<boolean>;
  /** Every row of the account, as of now (the account is locked). */
  load(keyDigest: string): Promise<StoredAccount>;
  /** Writes an account's changes (its row exists and is locked). */
  write(change: AccountChanges): Promise<void>;
}

export interface StoredObject {
  id: string;
  kind: string;
  /** Creation order within the account. */
  seq: number;
  document: string;
}

/**
 * `entry` is "" for a whole field (a marker for a Map or array field), "=<key>" for one entry of a
 * Map field, "#<index>" for one item of an array field (earlier versions stored arrays whole).
 */
export interface StoredField {
  field: string;
  entry: string;
  document: string;
}

export interface StoredAccount {
  keyDigest: string;
  id: string;
  /** Bumped by every write when the storage is shared (absent otherwise). */
  version?: number;
  objects: StoredObject[];
  fields: StoredField[];
}

export interface AccountChanges {
  keyDigest: string;
  id: string;
  /** The account row does not exist yet. */
  created: boolean;
  objects: StoredObject[];
  removedObjects: string[];
  fields: StoredField[];
  removedFields: { field: string; entry: string }[];
}

/** Keeps state in this process only: what a restart of the emulator (not of the process) reads back. */
export function memoryPersistence(): EmulatorPersistence & { saves: number } {
  const accounts = new Map<
    string,
    { keyDigest: string; id: string; objects: Map<string, StoredObject>; fields: Map<string, StoredField> }
  >();
  const adapter = {
    saves: 0,
    load: () =>
      Promise.resolve(
        [...accounts.values()].map((account) => ({
          keyDigest: account.keyDigest,
          id: account.id,
          objects: [...account.objects.values()].map((o) => ({ ...o })),
          fields: [...account.fields.values()].map((f) => ({ ...f })),
        })),
      ),
    save: (changes: AccountChanges[]) => {
      const missing = changes.find((change) => !change.created && !accounts.has(change.id));
      if (missing) return Promise.reject(new Error(`No stored account ${missing.id}`));
      adapter.saves++;
      for (const change of changes) {
        let account = accounts.get(change.id);
        if (!account) {
          account = { keyDigest: change.keyDigest, id: change.id, objects: new Map(), fields: new Map() };
          accounts.set(change.id, account);
        }
        for (const object of change.objects) account.objects.set(object.id, { ...object });
        for (const id of change.removedObjects) account.objects.delete(id);
        for (const field of change.fields) account.fields.set(`${field.field} ${field.entry}`, { ...field });
        for (const field of change.removedFields) account.fields.delete(`${field.field} ${field.entry}`);
      }
      return Promise.resolve();
    },
  };
  return adapter;
}
