import { invalidRequest } from "./errors";
import { snapshot } from "./events";
import { listOf } from "./list";
import type { Account } from "./state";

type Plain = Record<string, unknown>;

const isPlain = (value: unknown): value is Plain =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Fields Stripe leaves out unless expanded ("includable"), computed from other objects. */
const includables: Record<string, Record<string, (account: Account, holder: Plain) => unknown>> = {
  invoice: {
    payments: (account, invoice) =>
      listOf(
        account.store
          .all("invoice_payment")
          .filter((payment) => payment.invoice === invoice.id)
          .map(snapshot),
        `/v1/invoices/${String(invoice.id)}/payments`,
      ),
    confirmation_secret: (account, invoice) => {
      const payment = account.store
        .all("invoice_payment")
        .find((p) => p.invoice === invoice.id && p.is_default);
      const intentId = payment?.payment.payment_intent;
      const intent = typeof intentId === "string" ? account.store.get("payment_intent", intentId) : undefined;
      return intent?.client_secret ? { client_secret: intent.client_secret, type: "payment_intent" } : null;
    },
  },
  charge: {
    refunds: (account, charge) =>
      listOf(
        account.store
          .all("refund")
          .filter((refund) => refund.charge === charge.id)
          .reverse()
          .map(snapshot),
        `/v1/charges/${String(charge.id)}/refunds`,
      ),
  },
};

/** An object by id as expansion shows it (a deleted customer shows as its deleted stub). */
function resolve(account: Account, id: string): unknown {
  if (account.deleted.has(id)) return { id, object: "customer", deleted: true };
  const found = account.store.find(id);
  return found ? snapshot(found.object) : undefined;
}

function cannotExpand(path: string): never {
  throw invalidRequest(`This property cannot be expanded (${path}).`, { param: "expand" });
}

function applyPath(account: Account, holder: Plain, segments: string[], fullPath: string): void {
  const [head, ...rest] = segments;
  if (head === undefined) return;
  let value = holder[head];
  if (value === undefined) {
    const compute = includables[String(holder.object)]?.[head];
    if (!compute) cannotExpand(fullPath);
    value = compute(account, holder);
  }
  if (typeof value === "string") {
    const resolved = resolve(account, value);
    if (resolved === undefined) cannotExpand(fullPath);
    value = resolved;
  }
  holder[head] = value;
  if (rest.length === 0 || value === null) return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      if (typeof item === "string" && rest.length === 0) value[i] = resolve(account, item) ?? item;
      else if (isPlain(item)) applyPath(account, item, rest, fullPath);
    }
    return;
  }
  if (isPlain(value)) applyPath(account, value, rest, fullPath);
  else cannotExpand(fullPath);
}

/**
 * A copy of a response object with `expand[]` applied: ids become objects (`latest_charge`,
 * `customer`...), includable fields appear (`latest_invoice.payments`), lists descend through
 * `data` (`latest_invoice.payments.data.payment.payment_intent`). Up to four levels (not counting
 * `data`), as on Stripe.
 */
export function expandResponse(account: Account, body: unknown, paths: string[]): unknown {
  const out = snapshot(body);
  if (!isPlain(out)) return out;
  for (const path of paths) {
    const segments = path.split(".");
    if (segments.filter((segment) => segment !== "data").length > 4) {
      throw invalidRequest(`You cannot expand more than 4 levels of a property (${path}).`, {
        param: "expand",
      });
    }
    applyPath(account, out, segments, path);
  }
  return out;
}
