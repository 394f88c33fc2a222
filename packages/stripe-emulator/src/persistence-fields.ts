import type { Account } from "./state";
import type { StoredField } from "./persistence";
import { encodeEntry, encodeValue, fieldRowKey, notFields } from "./persistence-codec";
import { TrackedMap } from "./tracked-map";

/** What changed in an account's fields since the rows in `saved` (row key → document). */
export interface FieldChanges {
  fields: StoredField[];
  removedFields: { field: string; entry: string }[];
  /** Each array field's items as compared (their identities, for the next comparison). */
  items: Map<string, unknown[]>;
}

/**
 * Compares the account's fields with the rows last saved. With `full`, every entry of every field
 * and every saved row (a field no longer on the account is removed); else only the entries of
 * Map fields marked since (TrackedMap) and the items of array fields whose identity changed since
 * `savedItems`; other fields, small, are encoded whole.
 */
export function diffAccountFields(
  account: Account,
  saved: Map<string, string>,
  savedItems: Map<string, unknown[]>,
  full: boolean,
): FieldChanges {
  const changes: FieldChanges = { fields: [], removedFields: [], items: new Map() };
  const compare = (field: string, entry: string, document: string | undefined) => {
    const key = fieldRowKey(field, entry);
    if (document === undefined) {
      if (saved.has(key)) changes.removedFields.push({ field, entry });
    } else if (saved.get(key) !== document) changes.fields.push({ field, entry, document });
  };
  const present = full ? new Set<string>() : null;
  for (const [field, value] of Object.entries(account)) {
    if (notFields.has(field)) continue;
    if (value instanceof Map) {
      compare(field, "", emptyMap);
      present?.add(fieldRowKey(field, ""));
      const marks = value instanceof TrackedMap ? value.takeMarks() : null;
      if (marks && !full) {
        for (const key of marks) compare(field, `=${String(key)}`, value.has(key) ? encodeEntry(field, Map.prototype.get.call(value, key)) : undefined);
        continue;
      }
      const entries = value instanceof TrackedMap ? value.quietEntries() : value.entries();
      for (const [key, inner] of entries as MapIterator<[unknown, unknown]>) {
        compare(field, `=${String(key)}`, encodeEntry(field, inner));
        present?.add(fieldRowKey(field, `=${String(key)}`));
      }
      if (!present) removeMissing(changes, saved, `${field} =`, (entry) => !value.has(entry));
    } else if (Array.isArray(value)) {
      const before = full ? [] : (savedItems.get(field) ?? []);
      compare(field, "", "[]");
      present?.add(fieldRowKey(field, ""));
      value.forEach((item, index) => {
        present?.add(fieldRowKey(field, `#${index}`));
        // An item compared and saved before, still at its place, is unchanged (items are appended).
        if (before[index] !== item) compare(field, `#${index}`, encodeEntry(field, item));
      });
      for (let index = value.length; index < before.length; index++) compare(field, `#${index}`, undefined);
      changes.items.set(field, [...value]);
    } else {
      compare(field, "", JSON.stringify(encodeValue(value)));
      present?.add(fieldRowKey(field, ""));
    }
  }
  if (present)
    for (const key of saved.keys()) {
      if (present.has(key)) continue;
      const space = key.indexOf(" ");
      changes.removedFields.push({ field: key.slice(0, space), entry: key.slice(space + 1) });
    }
  return changes;
}

/** Rows of a Map field whose entry is gone (after comparing every entry of that field). */
function removeMissing(changes: FieldChanges, saved: Map<string, string>, prefix: string, gone: (entry: string) => boolean) {
  for (const key of saved.keys()) {
    if (!key.startsWith(prefix)) continue;
    const entry = key.slice(prefix.length);
    if (gone(entry)) changes.removedFields.push({ field: prefix.slice(0, -2), entry: `=${entry}` });
  }
}

const emptyMap = JSON.stringify(encodeValue(new Map()));
