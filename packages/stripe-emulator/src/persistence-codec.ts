import type { Account } from "./state";
import type { StoredField } from "./persistence";
import { TrackedMap } from "./tracked-map";

/**
 * Account fields as JSON rows, generically (the contract is documented on `Account`): Maps and
 * Sets become tagged JSON; a Map held directly by the account is saved entry by entry ("=<key>")
 * and an array held directly by it item by item ("#<index>"), so that a growing one (idempotency
 * keys, cards, webhook deliveries) costs one row per change, not a rewrite of the whole field.
 * Accounts saved before arrays were itemized (their array in the field's own row) load the same.
 */

/** Fields never saved as rows: the key (only its digest is stored), the id (the account row) and the objects. */
export const notFields = new Set(["key", "id", "store"]);
const tags = ["$map", "$set", "$obj"];

export function encodeValue(value: unknown): unknown {
  if (value instanceof Map) return { $map: [...value].map(([k, v]) => [encodeValue(k), encodeValue(v)]) };
  if (value instanceof Set) return { $set: [...value].map(encodeValue) };
  if (Array.isArray(value)) return value.map(encodeValue);
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) out[key] = encodeValue(inner);
    return Object.keys(out).some((key) => tags.includes(key)) ? { $obj: out } : out;
  }
  return value;
}

export function decodeValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decodeValue);
  if (typeof value !== "object" || value === null) return value;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length === 1 && keys[0] === "$map") {
    return new Map((record.$map as [unknown, unknown][]).map(([k, v]) => [decodeValue(k), decodeValue(v)]));
  }
  if (keys.length === 1 && keys[0] === "$set") return new Set((record.$set as unknown[]).map(decodeValue));
  const plain = keys.length === 1 && keys[0] === "$obj" ? (record.$obj as Record<string, unknown>) : record;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(plain)) out[key] = decodeValue(inner);
  return out;
}

export const fieldRowKey = (field: string, entry: string) => `${field} ${entry}`;

/**
 * Fields whose entries are never changed in place once added (a change replaces the entry): an
 * entry's document is encoded once and remembered by the entry's identity, so saving an account
 * does not encode its whole history again each time.
 */
const unchangingEntries = new Set(["idempotency", "deliveries"]);
const documents = new WeakMap<object, string>();

export function encodeEntry(field: string, value: unknown): string | undefined {
  const remember = unchangingEntries.has(field) && typeof value === "object" && value !== null;
  const known = remember ? documents.get(value) : undefined;
  if (known !== undefined) return known;
  const document = JSON.stringify(encodeValue(value)) as string | undefined;
  if (remember && document !== undefined) documents.set(value, document);
  return document;
}

/**
 * Every row of the account's fields, by `fieldRowKey`. A Map field has a marker row ("") and one
 * row per entry; an array field a marker row (`[]`) and one row per item.
 */
export function encodeAccountFields(account: Account): Map<string, StoredField> {
  const rows = new Map<string, StoredField>();
  const add = (field: string, entry: string, document: string | undefined) => {
    if (document !== undefined) rows.set(fieldRowKey(field, entry), { field, entry, document });
  };
  for (const [field, value] of Object.entries(account)) {
    if (notFields.has(field)) continue;
    if (value instanceof Map) {
      add(field, "", emptyMap);
      for (const [key, inner] of value as Map<unknown, unknown>) add(field, `=${String(key)}`, encodeEntry(field, inner));
    } else if (Array.isArray(value)) {
      add(field, "", "[]");
      value.forEach((item, index) => add(field, `#${index}`, encodeEntry(field, item)));
    } else add(field, "", JSON.stringify(encodeValue(value)));
  }
  return rows;
}

const emptyMap = JSON.stringify(encodeValue(new Map()));

/** Sets the stored fields on an account made by `newAccount` (fields not stored keep their defaults). */
export function applyAccountFields(account: Account, rows: StoredField[]): void {
  const target = account as unknown as Record<string, unknown>;
  const whole = rows.filter((row) => row.entry === "");
  for (const row of whole) {
    if (notFields.has(row.field)) continue;
    const value = decodeValue(JSON.parse(row.document));
    target[row.field] = value instanceof Map ? TrackedMap.of(value) : value;
  }
  for (const row of rows) {
    if (row.entry === "" || notFields.has(row.field)) continue;
    const holder = target[row.field];
    const value = decodeValue(JSON.parse(row.document));
    // Its document is the one stored: not encoded again at the next save.
    if (unchangingEntries.has(row.field) && typeof value === "object" && value !== null) documents.set(value, row.document);
    if (holder instanceof Map && row.entry.startsWith("=")) Map.prototype.set.call(holder, row.entry.slice(1), value);
    else if (Array.isArray(holder) && row.entry.startsWith("#")) holder[Number(row.entry.slice(1))] = value;
  }
}
