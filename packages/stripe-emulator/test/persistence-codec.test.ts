import { describe, expect, it } from "vitest";
import { newAccount } from "../src/accounts";
import { applyAccountFields, decodeValue, encodeAccountFields, encodeValue } from "../src/persistence-codec";
import type { StoredField } from "../src/persistence";
import { diffAccountFields } from "../src/persistence-fields";
import type { Emulator } from "../src/state";

const emu = { now: () => Date.UTC(2030, 0, 1) } as Emulator;

/** An account with every non-object field away from its default. */
function populatedAccount() {
  const account = newAccount(emu, "sk_test_codec");
  account.apiVersion = "2026-10-28.endive";
  account.deleted.add("cus_gone");
  account.cards.set("pm_1", {
    number: "4242424242424242",
    behavior: { kind: "succeed", risk: "normal" },
    setUpForOffSession: true,
    consumed: false,
  });
  account.invoiceByPaymentIntent.set("pi_1", "in_1");
  account.returnUrls.set("pi_2", "http://127.0.0.1/return?x=1");
  account.idempotency.set("key-1", {
    fingerprint: '{"amount":"100"}',
    endpoint: "POST /v1/customers",
    status: 200,
    body: {
      id: "cus_1",
      metadata: { $set: "a metadata key shaped like a tag", $map: "too" },
      nested: [{ $obj: 1 }],
    },
  });
  account.billing = { retryDelaysSeconds: [60, 120], afterRetries: "mark_unpaid" };
  account.faults = { failNext: [{ status: 503, shouldRetry: false }], unreachable: true };
  account.deliveries.push({
    event: "evt_1",
    type: "invoice.paid",
    endpoint: "we_1",
    url: "http://127.0.0.1:1/hook",
    attempt: 1,
    at: 1_900_000_000,
    status: 500,
    ok: false,
    error: "HTTP 500",
  });
  account.clockFailures.set("clock_1", "stack");
  account.pendingDeliveries.set("evt_1 we_1", {
    event: "evt_1",
    endpoint: "we_1",
    attempt: 2,
    dueAt: 1_900_000_060_000,
  });
  account.restrictedKeys.set("digest", ["webhook_endpoints"]);
  return account;
}

describe("account fields codec", () => {
  it("round-trips Maps, Sets, nested values and objects whose keys look like its tags", () => {
    const value = {
      map: new Map<string, unknown>([
        ["a", new Set([1, 2])],
        ["b", { $map: "literal" }],
      ]),
      list: [new Map([["x", null]]), "text", 3, true],
      $set: "literal key",
    };
    const stored = JSON.parse(JSON.stringify(encodeValue(value))) as unknown;
    expect(decodeValue(stored)).toEqual(value);
  });

  it("saves every field but the key and the objects, and loads them over a new account's defaults", () => {
    const account = populatedAccount();
    const rows = [...encodeAccountFields(account).values()];
    expect(rows.some((row) => row.field === "key" || row.field === "store")).toBe(false);
    expect(rows.map((row) => row.document).join("")).not.toContain("sk_test_codec");

    const restored = newAccount(emu, "sk_test_codec");
    restored.id = account.id;
    applyAccountFields(restored, JSON.parse(JSON.stringify(rows)) as typeof rows);
    const { store: _a, ...expected } = account;
    const { store: _b, ...actual } = restored;
    expect(actual).toEqual(expected);
  });

  it("saves a Map held by the account entry by entry (a marker row keeps an empty Map a Map)", () => {
    const account = populatedAccount();
    account.returnUrls.clear();
    const rows = encodeAccountFields(account);
    expect(rows.get("cards =pm_1")?.document).toContain("4242424242424242");
    expect(rows.get("idempotency =key-1")?.document).toContain("POST /v1/customers");
    expect([...rows.values()].filter((row) => row.field === "returnUrls")).toEqual([
      { field: "returnUrls", entry: "", document: '{"$map":[]}' },
    ]);
    const restored = newAccount(emu, "");
    restored.returnUrls.set("stale", "x");
    applyAccountFields(restored, [...rows.values()]);
    expect(restored.returnUrls).toBeInstanceOf(Map);
    expect([...restored.returnUrls]).toEqual([]);
    expect(restored.cards.get("pm_1")).toEqual(account.cards.get("pm_1"));
  });

  it("saves an array held by the account item by item, and still loads one stored whole", () => {
    const account = populatedAccount();
    const rows = encodeAccountFields(account);
    expect(rows.get("deliveries ")?.document).toBe("[]");
    expect(rows.get("deliveries #0")?.document).toContain('"evt_1"');

    // Appending one delivery adds one row; the others are the same documents.
    const second = { ...account.deliveries[0]!, event: "evt_2", attempt: 1, ok: true, status: 200, error: null };
    account.deliveries.push(second);
    const after = encodeAccountFields(account);
    const changed = [...after].filter(([key, row]) => rows.get(key)?.document !== row.document).map(([key]) => key);
    expect(changed).toEqual(["deliveries #1"]);
    const restored = newAccount(emu, "");
    applyAccountFields(restored, JSON.parse(JSON.stringify([...after.values()])) as StoredField[]);
    expect(restored.deliveries).toEqual(account.deliveries);

    // As saved before items had rows of their own: the whole array in the field's row.
    const old = newAccount(emu, "");
    applyAccountFields(old, [{ field: "deliveries", entry: "", document: JSON.stringify(account.deliveries) }]);
    expect(old.deliveries).toEqual(account.deliveries);
  });

  it("compares only the entries marked since the last save, and sees changes made in place", () => {
    const account = populatedAccount();
    const saved = new Map<string, string>();
    const apply = (changes: ReturnType<typeof diffAccountFields>) => {
      for (const f of changes.fields) saved.set(`${f.field} ${f.entry}`, f.document);
      for (const f of changes.removedFields) saved.delete(`${f.field} ${f.entry}`);
      return changes;
    };
    const first = apply(diffAccountFields(account, saved, new Map(), true));
    expect(first.fields.length).toBe(encodeAccountFields(account).size);
    let items = first.items;
    const next = () => {
      const changes = apply(diffAccountFields(account, saved, items, false));
      items = changes.items;
      return changes;
    };
    expect(next()).toMatchObject({ fields: [], removedFields: [] });

    // A card read, then changed in place; an entry removed; a delivery appended.
    account.cards.get("pm_1")!.consumed = true;
    account.returnUrls.delete("pi_2");
    account.deliveries.push({ ...account.deliveries[0]!, event: "evt_2" });
    const changed = next();
    expect(changed.fields.map((f) => `${f.field} ${f.entry}`).sort()).toEqual(["cards =pm_1", "deliveries #1"]);
    expect(changed.removedFields).toEqual([{ field: "returnUrls", entry: "=pi_2" }]);
    expect(saved).toEqual(new Map([...encodeAccountFields(account)].map(([key, row]) => [key, row.document])));
    expect(next()).toMatchObject({ fields: [], removedFields: [] });
  });
});
