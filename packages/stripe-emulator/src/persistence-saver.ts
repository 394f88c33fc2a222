import { newAccount } from "./accounts";
import { applyAccountFields, encodeAccountFields, fieldRowKey } from "./persistence-codec";
import type { AccountChanges, EmulatorPersistence, StoredField } from "./persistence";
import type { Account, Emulator, Kind, StateSaver } from "./state";
import { keyDigest, everyAccount } from "./stored-accounts";

/** Without an adapter nothing is saved (the package on its own keeps state in memory). */
export const noSaving: StateSaver = { touch: () => {}, save: () => Promise.resolve() };

/** What storage holds of an account, as last saved: compared to find what changed. */
interface Saved {
  keyDigest: string;
  stored: boolean;
  objects: Map<string, string>;
  fields: Map<string, string>;
}

/**
 * Write-through saving: the store records the ids it handed out (objects are mutated in place),
 * accounts are touched by whatever opens them; `save()` serializes only those, compares them with
 * what was last saved and writes the differences in one call of the adapter (one transaction).
 * Saves run one at a time, in order, so a response awaiting its save never overtakes an earlier one.
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

  /** Loads every stored account as dormant (opened when its key is next used). */
  async load(): Promise<Account[]> {
    const loaded: Account[] = [];
    for (const stored of await this.persistence.load()) {
      const account = newAccount(this.emu, "");
      account.id = stored.id;
      applyAccountFields(account, stored.fields);
      for (const object of [...stored.objects].sort((a, b) => a.seq - b.seq)) {
        account.store.restore(object.kind as Kind, JSON.parse(object.document) as never, object.seq);
      }
      account.store.touched.clear();
      this.saved.set(account, {
        keyDigest: stored.keyDigest,
        stored: true,
        objects: new Map(stored.objects.map((o) => [o.id, o.document])),
        fields: new Map(stored.fields.map((f) => [fieldRowKey(f.field, f.entry), f.document])),
      });
      this.emu.dormant.set(stored.keyDigest, account);
      loaded.push(account);
    }
    return loaded;
  }

  private async flush(): Promise<void> {
    const pending: {
      account: Account;
      saved: Saved;
      change: AccountChanges;
      rows: Map<string, StoredField> | null;
    }[] = [];
    const retouch: (() => void)[] = [];
    for (const account of everyAccount(this.emu)) {
      const store = account.store;
      const fieldsTouched = this.touched.has(account);
      if (!fieldsTouched && store.touched.size === 0 && store.removed.size === 0) continue;
      let saved = this.saved.get(account);
      if (!saved) {
        saved = { keyDigest: keyDigest(account.key), stored: false, objects: new Map(), fields: new Map() };
        this.saved.set(account, saved);
      }
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
      this.touched.delete(account);
      retouch.push(() => {
        for (const id of ids) if (store.entry(id)) store.touched.add(id);
        for (const id of removed) if (!store.entry(id)) store.removed.add(id);
        if (fieldsTouched) this.touched.add(account);
      });
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
      const empty =
        !change.created &&
        change.objects.length +
          change.removedObjects.length +
          change.fields.length +
          change.removedFields.length ===
          0;
      if (!empty) pending.push({ account, saved, change, rows });
    }
    if (pending.length === 0) return;
    try {
      await this.persistence.save(pending.map((p) => p.change));
    } catch (error) {
      for (const undo of retouch) undo();
      throw error;
    }
    for (const { saved, change, rows } of pending) {
      saved.stored = true;
      for (const object of change.objects) saved.objects.set(object.id, object.document);
      for (const id of change.removedObjects) saved.objects.delete(id);
      if (rows) saved.fields = new Map([...rows].map(([key, row]) => [key, row.document]));
    }
  }
}

function splitRowKey(key: string): [string, string] {
  const space = key.indexOf(" ");
  return [key.slice(0, space), key.slice(space + 1)];
}
