import { newAccount } from "./accounts";
import { applyAccountFields, fieldRowKey } from "./persistence-codec";
import { diffAccountFields } from "./persistence-fields";
import type { AccountChanges, EmulatorPersistence, StoredAccount } from "./persistence";
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
export interface Saved {
  keyDigest: string;
  stored: boolean;
  objects: Map<string, string>;
  fields: Map<string, string>;
  /** The items of each array field as last saved (by identity: items are appended, not changed). */
  items: Map<string, unknown[]>;
  /** Compare every field entry at the next save (a new or freshly loaded copy, or a failed save). */
  fullCheck: boolean;
  /** Shared storage: the stored version this copy reflects (-1: unknown, reload when stored). */
  version: number;
  /** Times the account was reloaded from shared storage. */
  generation: number;
}

/** An account's changes since it was last saved, ready to write. */
export interface Pending {
  account: Account;
  saved: Saved;
  change: AccountChanges;
  /** The array fields' items as compared (null: fields not compared). */
  items: Map<string, unknown[]> | null;
  /** Marks the ids as changed again (the write failed). */
  undo: () => void;
}

export function snapshot(stored: StoredAccount, generation: number): Saved {
  return {
    keyDigest: stored.keyDigest,
    stored: true,
    objects: new Map(stored.objects.map((o) => [o.id, o.document])),
    fields: new Map(stored.fields.map((f) => [fieldRowKey(f.field, f.entry), f.document])),
    items: new Map(),
    fullCheck: true,
    version: stored.version ?? -1,
    generation,
  };
}

/**
 * Puts the stored state into `account` in place (the Account object keeps its identity: handles,
 * webhook chains and restricted keys hold it), over the defaults of a new account.
 */
export function restoreInto(emu: Emulator, account: Account, stored: StoredAccount): void {
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
export function diff(account: Account, saved: Saved, fieldsTouched: boolean): Pending | null {
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
  let items: Map<string, unknown[]> | null = null;
  if (fieldsTouched || !saved.stored) {
    const fields = diffAccountFields(account, saved.fields, saved.items, saved.fullCheck || !saved.stored);
    change.fields = fields.fields;
    change.removedFields = fields.removedFields;
    items = fields.items;
  }
  const undo = () => {
    for (const id of ids) if (store.entry(id)) store.touched.add(id);
    for (const id of removed) if (!store.entry(id)) store.removed.add(id);
    // The marks of the fields' entries were taken: compare them all next time.
    if (items) saved.fullCheck = true;
  };
  const empty =
    !change.created &&
    change.objects.length +
      change.removedObjects.length +
      change.fields.length +
      change.removedFields.length ===
      0;
  // Nothing to write: the comparison still stands (the marks it took were of unchanged entries).
  if (empty && items) settleFields(saved, items);
  return empty ? null : { account, saved, change, items, undo };
}

/** After a successful write: storage now holds what `pending` wrote. */
export function written({ saved, change, items }: Pending): void {
  saved.stored = true;
  for (const object of change.objects) saved.objects.set(object.id, object.document);
  for (const id of change.removedObjects) saved.objects.delete(id);
  for (const field of change.fields) saved.fields.set(fieldRowKey(field.field, field.entry), field.document);
  for (const field of change.removedFields) saved.fields.delete(fieldRowKey(field.field, field.entry));
  if (items) settleFields(saved, items);
}

function settleFields(saved: Saved, items: Map<string, unknown[]>): void {
  saved.items = items;
  saved.fullCheck = false;
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
  private queued: Promise<void> | null = null;

  constructor(
    private readonly emu: Emulator,
    private readonly persistence: EmulatorPersistence,
  ) {}

  touch(account: Account): void {
    this.touched.add(account);
  }

  save(): Promise<void> {
    // Saves asked for while one is under way share the next one (a group commit): it writes
    // every change made until it starts.
    if (this.queued) return this.queued;
    const run = this.chain.then(() => {
      this.queued = null;
      return this.flush();
    });
    this.queued = run;
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

export const newSaved = (account: Account): Saved => ({
  keyDigest: keyDigest(account.key),
  stored: false,
  objects: new Map(),
  fields: new Map(),
  items: new Map(),
  fullCheck: true,
  version: -1,
  generation: 0,
});

export async function loadAll(
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
