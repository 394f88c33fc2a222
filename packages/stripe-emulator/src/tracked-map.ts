/**
 * A Map held directly by an account, which remembers the keys that may have changed since the
 * last save, so that a save compares those entries only, not the whole (growing) map: `set` and
 * `delete` mark their key, `get` marks its key when the value is an object (handlers change
 * such entries in place, e.g. a card's `consumed`), iterating marks every key. Its marks live in
 * private fields: to everything else it is a Map.
 */
export class TrackedMap<K, V> extends Map<K, V> {
  #touched = new Set<K>();
  #all = true;

  static of<K, V>(entries: Iterable<readonly [K, V]>): TrackedMap<K, V> {
    const map = new TrackedMap<K, V>();
    for (const [key, value] of entries) map.set(key, value);
    return map;
  }

  override get(key: K): V | undefined {
    const value = super.get(key);
    if (typeof value === "object" && value !== null) this.#touched.add(key);
    return value;
  }

  override set(key: K, value: V): this {
    // Map's constructor calls set before the private fields exist (TrackedMap.of does not).
    this.#touched?.add(key);
    return super.set(key, value);
  }

  override delete(key: K): boolean {
    this.#touched.add(key);
    return super.delete(key);
  }

  override clear(): void {
    this.#all = true;
    super.clear();
  }

  override entries(): MapIterator<[K, V]> {
    this.#all = true;
    return super.entries();
  }

  override values(): MapIterator<V> {
    this.#all = true;
    return super.values();
  }

  override [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  override forEach(callback: (value: V, key: K, map: Map<K, V>) => void, thisArg?: unknown): void {
    this.#all = true;
    super.forEach(callback, thisArg);
  }

  /** The keys marked since the last call (null: compare every entry), forgetting them. */
  takeMarks(): Set<K> | null {
    const marks = this.#all ? null : this.#touched;
    this.#all = false;
    this.#touched = new Set();
    return marks;
  }

  /** The entries, without marking them. */
  quietEntries(): MapIterator<[K, V]> {
    return super.entries();
  }
}
