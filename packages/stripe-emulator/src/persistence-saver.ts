import { newAccount } from "./accounts";
import { applyAccountFields, encodeAccountFields, fieldRowKey } from "./persistence-codec";
import type {
  AccountChanges,
  EmulatorPersistence,
  SharedStorage,
  StoredAccount,
  StoredField,
} from "./persistence";
import type { Account, Emulator, Kind, StateSaver } from "./state";
import { keyDigest, everyAccount } from "./stored-accounts";

/** Without an adapter nothing is saved (the package on its own keeps state in memory). */
export const noSaving: StateSaver = {
  touch: () => {},
  save: () => Promise.resolve(),
  run: (_account, _mode, work) => {
    try {
      return Promise.resolve(work());
    } catch (error) {
      return Promise.reject(error as Error);
    }
  },
  generation: () => 0,
  findById: () => Promise.resolve(undefined),
};

/** What storage holds of an account, as last saved or loaded: compared to find what changed. */
interface Saved {
  keyDigest: string;
  stored: boolean;
  objects: Map<string, string>;
  fields: Map<string, string>;
  /** Shared storage: the stored version this copy reflects (-1: unknown, reload when stored). */
  version: number;
  /** Times the account was reloaded from shared storage. */
  generation: number;
}

/** An account's changes since it was last saved, ready to write. */
interface Pending {
  account: Account;
  saved: Saved;
  change: AccountChanges;
  rows: Map<string, StoredField> | null;
  /** Marks the ids as changed again (the write failed). */
  undo: () => void;
}

function snapshot(stored: StoredAccount, generation: number): Saved {
  return {
    keyDigest: stored.keyDigest,
    stored: true,
    objects: new Map(stored.objects.map((o) => [o.id, o.document])),
    fields: new Map(stored.fields.map((f) => [fieldRowKey(f.field, f.entry), f.document])),
    version: stored.version ?? -1,
    generation,
  };
}

/**
 * Puts the stored state into `account` in place (the Account object keeps its identity: handles,
 * webhook chains and restricted keys hold it), over the defaults of a new account.
 */
function restoreInto(emu: Emulator, account: Account, stored: StoredAccount): void {
  const fresh = newAccount(emu, account.key);
  fresh.id = stored.id;
  applyAccountFields(fresh, stored.fields);
  for (const object of [...stored.objects].sort((a, b) => a.seq - b.seq)) {
    fresh.store.restore(object.kind as Kind, JSON.parse(object.document) as never, object.seq);
  }
  fresh.store.touched.clear();
  Object.assign(account, fresh);
}

/** What changed in `account` since `saved` (null when nothing did). Clears its touched ids. */
function diff(account: Account, saved: Saved, fieldsTouched: boolean): Pending | null {
  const store = account.store;
  const change: AccountChanges = {
    keyDigest: saved.keyDigest,
    id: account.id,
    created: !saved.stored,
    objects: [],
    removedObjects: [],
    fields: [],
    removedFields: [],
  };
  const ids = [...store.touched];
  const removed = [...store.removed];
  store.touched.clear();
  store.removed.clear();
  for (const id of ids) {
    const entry = store.entry(id);
    if (!entry) continue;
    const document = JSON.stringify(entry.object);
    if (saved.objects.get(id) !== document)
      change.objects.push({ id, kind: entry.kind, seq: entry.seq, document });
  }
  for (const id of removed) if (saved.objects.has(id)) change.removedObjects.push(id);
  let rows: Map<string, StoredField> | null = null;
  if (fieldsTouched || !saved.stored) {
    rows = encodeAccountFields(account);
    for (const [key, row] of rows) if (saved.fields.get(key) !== row.document) change.fields.push(row);
    for (const key of saved.fields.keys()) {
      if (rows.has(key)) continue;
      const [field = "", entry = ""] = splitRowKey(key);
      change.removedFields.push({ field, entry });
    }
  }
  const undo = () => {
    for (const id of ids) if (store.entry(id)) store.touched.add(id);
    for (const id of removed) if (!store.entry(id)) store.removed.add(id);
  };
  const empty =
    !change.created &&
    change.objects.length +
      change.removedObjects.length +
      change.fields.length +
      change.removedFields.length ===
      0;
  return empty ? null : { account, saved, change, rows, undo };
}

/** After a successful write: storage now holds what `pending` wrote. */
function written({ saved, change, rows }: Pending): void {
  saved.stored = true;
  for (const object of change.objects) saved.objects.set(object.id, object.document);
  for (const id of change.removedObjects) saved.objects.delete(id);
  if (rows) saved.fields = new Map([...rows].map(([key, row]) => [key, row.document]));
}

/**
 * Write-through saving: the store records the ids it handed out (objects are mutated in place),
 * accounts are touched by whatever opens them; `save()` serializes only those, compares them with
 * what was last saved and writes the differences in one call of the adapter (one transaction).
 * Saves run one at a time, in order, so a response awaiting its save never overtakes an earlier one.
 * This is for storage used by this process alone; SharedSaver is for storage shared by several.
 */
export class PersistentSaver implements StateSaver {
  private readonly touched = new Set<Account>();
  private readonly saved = new WeakMap<Account, Saved>();
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly emu: Emulator,
    private readonly persistence: EmulatorPersistence,
  ) {}

  touch(account: Account): void {
    this.touched.add(account);
  }

  save(): Promise<void> {
    const run = this.chain.then(() => this.flush());
    this.chain = run.catch(() => undefined);
    return run;
  }

  async run<T>(account: Account, _mode: "read" | "write", work: () => T): Promise<T> {
    this.touch(account);
    try {
      return work();
    } finally {
      await this.save();
    }
  }

  generation(): number {
    return 0;
  }

  findById(): Promise<Account | undefined> {
    return Promise.resolve(undefined);
  }

  /** Loads every stored account as dormant (opened when its key is next used). */
  async load(): Promise<Account[]> {
    return loadAll(this.emu, this.persistence, this.saved);
  }

  private async flush(): Promise<void> {
    const pending: Pending[] = [];
    for (const account of everyAccount(this.emu)) {
      const fieldsTouched = this.touched.has(account);
      if (!fieldsTouched && account.store.touched.size === 0 && account.store.removed.size === 0) continue;
      let saved = this.saved.get(account);
      if (!saved) {
        saved = newSaved(account);
        this.saved.set(account, saved);
      }
      this.touched.delete(account);
      const found = diff(account, saved, fieldsTouched);
      if (found) {
        const undo = found.undo;
        found.undo = () => {
          undo();
          if (fieldsTouched) this.touched.add(account);
        };
        pending.push(found);
      }
    }
    if (pending.length === 0) return;
    try {
      await this.persistence.save(pending.map((p) => p.change));
    } catch (error) {
      for (const p of pending) p.undo();
      throw error;
    }
    for (const p of pending) written(p);
  }
}

const newSaved = (account: Account): Saved => ({
  keyDigest: keyDigest(account.key),
  stored: false,
  objects: new Map(),
  fields: new Map(),
  version: -1,
  generation: 0,
});

async function loadAll(
  emu: Emulator,
  persistence: EmulatorPersistence,
  saved: WeakMap<Account, Saved>,
): Promise<Account[]> {
  const loaded: Account[] = [];
  for (const stored of await persistence.load()) {
    const account = newAccount(emu, "");
    restoreInto(emu, account, stored);
    saved.set(account, snapshot(stored, 0));
    emu.dormant.set(stored.keyDigest, account);
    loaded.push(account);
  }
  return loaded;
}

/**
 * Saving to storage shared by several processes (several Kassa instances on one PostgreSQL).
 * Each process keeps its copy of the accounts it uses, tagged with the stored version it reflects;
 * every operation on an account (`run`) is serialized in this process and, in the database:
 * - `write`: one transaction locks the account's row and bumps its version (one UPDATE); when the
 *   version moved past this copy's, the account is reloaded (one SELECT) before `work` runs; the
 *   changes are written and committed with the lock held, so no process loses another's update.
 * - `read`: one statement checks the version (and returns the rows when stale), `work` runs; when
 *   it changed nothing (the usual GET) that is all; otherwise the write path follows and, if the
 *   account moved meanwhile, reloads and runs `work` again on the fresh state.
 * A failed operation marks the copy stale: the next one reloads it from storage.
 */
export class SharedSaver implements StateSaver {
  private readonly saved = new WeakMap<Account, Saved>();
  private readonly tails = new Map<Account, Promise<void>>();

  constructor(
    private readonly emu: Emulator,
    private readonly persistence: EmulatorPersistence,
    private readonly storage: SharedStorage,
  ) {}

  touch(): void {}

  /** Waits for the operations under way, then saves what changed outside one (normally nothing). */
  async save(): Promise<void> {
    await Promise.all([...this.tails.values()]);
    for (const account of everyAccount(this.emu)) {
      if (account.store.touched.size === 0 && account.store.removed.size === 0) continue;
      await this.run(account, "read", () => undefined);
    }
  }

  generation(account: Account): number {
    return this.saved.get(account)?.generation ?? 0;
  }

  async load(): Promise<Account[]> {
    return loadAll(this.emu, this.persistence, this.saved);
  }

  async findById(id: string): Promise<Account | undefined> {
    const digest = await this.storage.digestOf(id);
    if (!digest) return undefined;
    const known = everyAccount(this.emu).find((account) => this.savedOf(account).keyDigest === digest);
    if (known) return known;
    // Opened by its key later (claimStoredAccount); reloaded by its first operation.
    const account = newAccount(this.emu, "");
    account.id = id;
    this.saved.set(account, { ...newSaved(account), keyDigest: digest, stored: true });
    this.emu.dormant.set(digest, account);
    return account;
  }

  run<T>(account: Account, mode: "read" | "write", work: () => T): Promise<T> {
    const previous = this.tails.get(account) ?? Promise.resolve();
    const result = previous.then(() => this.exclusive(account, mode, work));
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(account, tail);
    void tail.then(() => {
      if (this.tails.get(account) === tail) this.tails.delete(account);
    });
    return result;
  }

  private savedOf(account: Account): Saved {
    let saved = this.saved.get(account);
    if (!saved) {
      saved = newSaved(account);
      this.saved.set(account, saved);
    }
    return saved;
  }

  private reload(account: Account, saved: Saved, stored: StoredAccount): Saved {
    restoreInto(this.emu, account, stored);
    const fresh = snapshot(stored, saved.generation + 1);
    this.saved.set(account, fresh);
    return fresh;
  }

  private async exclusive<T>(account: Account, mode: "read" | "write", work: () => T): Promise<T> {
    let saved = this.savedOf(account);
    try {
      let first: { result: T; pending: Pending | null } | null = null;
      if (mode === "read") {
        const stored = await this.storage.check(saved.keyDigest, saved.version);
        if (stored && stored.version !== saved.version) saved = this.reload(account, saved, stored);
        const result = work();
        const pending = diff(account, saved, true);
        if (!pending) return result;
        first = { result, pending };
      }
      const { result, pending, version } = await this.storage.transaction(async (tx) => {
        let locked = await tx.lock(saved.keyDigest);
        if (!locked && !saved.stored) {
          if (await tx.create(saved.keyDigest, account.id)) locked = { id: account.id, version: 1 };
          else locked = await tx.lock(saved.keyDigest);
        }
        if (!locked) throw new Error(`The stored account ${account.id} disappeared.`);
        const created = !saved.stored && locked.version === 1 && locked.id === account.id;
        let done = first;
        if (!created && locked.version - 1 !== saved.version) {
          saved = this.reload(account, saved, await tx.load(saved.keyDigest));
          done = null;
        }
        if (!done) {
          const result = work();
          done = { result, pending: diff(account, saved, true) };
        }
        if (done.pending) await tx.write(done.pending.change);
        return { ...done, version: locked.version };
      });
      if (pending) written(pending);
      saved.stored = true;
      saved.version = version;
      return result;
    } catch (error) {
      // This copy may hold changes that were not saved: the next operation reloads it.
      if (saved.stored) saved.version = -2;
      else
        restoreInto(this.emu, account, {
          keyDigest: saved.keyDigest,
          id: account.id,
          objects: [],
          fields: [],
        });
      throw error;
    }
  }
}

function splitRowKey(key: string): [string, string] {
  const space = key.indexOf(" ");
  return [key.slice(0, space), key.slice(space + 1)];
}
