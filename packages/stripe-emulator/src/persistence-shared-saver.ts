import { newAccount } from "./accounts";
import type { EmulatorPersistence, SharedStorage, StoredAccount } from "./persistence";
import type { Account, Emulator, StateSaver } from "./state";
import { everyAccount } from "./stored-accounts";
import {
  diff,
  loadAll,
  newSaved,
  type Pending,
  restoreInto,
  type Saved,
  snapshot,
  written,
} from "./persistence-saver";

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
