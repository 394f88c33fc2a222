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
 *
 * Operations queued on an account while one is under way run together as one batch (a group
 * commit, decision 0080): one version check or one locked transaction, each operation's `work` in
 * turn on the same copy, one diff and one write; each answers once the batch is committed. So the
 * lock is held, and the round trips paid, once per batch, not once per operation.
 */
export class SharedSaver implements StateSaver {
  private readonly saved = new WeakMap<Account, Saved>();
  private readonly queues = new Map<Account, Queue>();

  constructor(
    private readonly emu: Emulator,
    private readonly persistence: EmulatorPersistence,
    private readonly storage: SharedStorage,
  ) {}

  touch(): void {}

  /** Waits for the operations under way, then saves what changed outside one (normally nothing). */
  async save(): Promise<void> {
    await Promise.all([...this.queues.values()].map((queue) => queue.done));
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
    return new Promise<T>((resolve, reject) => {
      let queue = this.queues.get(account);
      if (!queue) {
        queue = { ops: [], done: Promise.resolve() };
        this.queues.set(account, queue);
        queue.done = this.drain(account, queue);
      }
      queue.ops.push({ mode, work, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  /** Runs the account's queued operations, batch after batch, until none is left. */
  private async drain(account: Account, queue: Queue): Promise<void> {
    // Let the operation that started the queue be joined by those queued in the same tick.
    await Promise.resolve();
    try {
      while (queue.ops.length > 0) {
        const batch = queue.ops.splice(0, maxBatch);
        const retry = await this.exclusive(account, batch);
        queue.ops.unshift(...retry);
      }
    } finally {
      // In the same tick as the last check: an operation queued later starts a new queue.
      this.queues.delete(account);
    }
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

  /**
   * One batch, settled: each operation answered (or rejected), or handed back to run again when
   * another operation of the batch threw (its changes may be half made: the batch is dropped).
   */
  private async exclusive(account: Account, batch: Op[]): Promise<Op[]> {
    let saved = this.savedOf(account);
    try {
      const runAll = () => runBatch(batch);
      let first: { results: unknown[]; pending: Pending | null } | null = null;
      if (batch.every((op) => op.mode === "read")) {
        const stored = await this.storage.check(saved.keyDigest, saved.version);
        if (stored && stored.version !== saved.version) saved = this.reload(account, saved, stored);
        const results = runAll();
        const pending = diff(account, saved, true);
        if (!pending) return settle(batch, results);
        first = { results, pending };
      }
      const { results, pending, version } = await this.storage.transaction(async (tx) => {
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
          const results = runAll();
          done = { results, pending: diff(account, saved, true) };
        }
        if (done.pending) await tx.write(done.pending.change);
        return { ...done, version: locked.version };
      });
      if (pending) written(pending);
      saved.stored = true;
      saved.version = version;
      return settle(batch, results);
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
      if (error instanceof WorkFailed) {
        batch[error.index]!.reject(error.cause);
        return batch.filter((_, i) => i !== error.index);
      }
      for (const op of batch) op.reject(error);
      return [];
    }
  }
}

/** Operations per batch at most (a batch holds the account's lock while all of them run). */
const maxBatch = 64;

interface Op {
  mode: "read" | "write";
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

interface Queue {
  ops: Op[];
  /** Settles once the queue is empty (every operation answered). */
  done: Promise<void>;
}

/** An operation's `work` threw: the batch is dropped, that operation fails, the others run again. */
class WorkFailed extends Error {
  constructor(
    readonly index: number,
    override readonly cause: unknown,
  ) {
    super("An operation of the batch failed.");
  }
}

function runBatch(batch: Op[]): unknown[] {
  return batch.map((op, index) => {
    try {
      return op.work();
    } catch (error) {
      throw new WorkFailed(index, error);
    }
  });
}

function settle(batch: Op[], results: unknown[]): Op[] {
  batch.forEach((op, i) => op.resolve(results[i]));
  return [];
}
