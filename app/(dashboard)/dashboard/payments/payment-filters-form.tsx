import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { paymentStatusLabel } from "@/lib/dashboard/format";
import { listStatuses, type parsePaymentFilters } from "@/lib/dashboard/payment-filters";
import { paymentDisputeFilters, type PaymentDisputeFilter } from "@/lib/disputes/dispute-filter";
import { FilterCard } from "../_components/filter-card";

const methods = ["credit", "apple_pay", "google_pay", "bitcoin", "pix_br"];

/** The dispute filter's choices, in words (the payment's own status stays the interface's). */
const disputeChoices: Record<PaymentDisputeFilter, string> = {
  any: "Disputed",
  open: "Dispute open",
  needs_response: "Dispute needs response",
  won: "Dispute won",
  lost: "Dispute lost",
};

/** Search, status, dispute, method and dates; a malformed one is ignored and said so (by FilterCard). */
export function PaymentFiltersForm({ parsed, filtered }: { parsed: ReturnType<typeof parsePaymentFilters>; filtered: boolean }) {
  const filters = parsed.filters;
  const invalid = (key: string) => (!parsed.ok && parsed.fields[key]?.join(", ") ? true : undefined);
  return (
    <FilterCard
      action="/dashboard/payments"
      label="Search and filter payments"
      formClassName="grid gap-3 sm:grid-cols-2 lg:grid-cols-7 lg:items-end"
      buttonsClassName="flex gap-2 sm:col-span-2 lg:col-span-7"
      submitLabel="Search"
      filtered={filtered}
      ignored={parsed.ok ? null : parsed.message}
    >
      <Field id="q" label="Search" className="sm:col-span-2">
        {(p) => <Input {...p} name="q" type="search" defaultValue={filters.q ?? ""} placeholder="Order id, customer e-mail or session id" aria-invalid={invalid("q")} />}
      </Field>
      <Field id="status" label="Status">
        {(p) => (
          <Select {...p} name="status" defaultValue={filters.status ?? ""}>
            <option value="">Any status</option>
            {listStatuses.map((s) => (
              <option key={s} value={s}>
                {paymentStatusLabel(s === "open" ? null : s).label}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field id="dispute" label="Dispute">
        {(p) => (
          <Select {...p} name="dispute" defaultValue={filters.dispute ?? ""}>
            <option value="">Disputed or not</option>
            {paymentDisputeFilters.map((d) => (
              <option key={d} value={d}>
                {disputeChoices[d]}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field id="method" label="Method">
        {(p) => (
          <Select {...p} name="method" defaultValue={filters.method ?? ""}>
            <option value="">Any method</option>
            {[...new Set([...methods, ...(filters.method ? [filters.method] : [])])].map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field id="from" label="Created from">
        {(p) => <Input {...p} name="from" type="date" defaultValue={filters.from ?? ""} aria-invalid={invalid("from")} />}
      </Field>
      <Field id="to" label="Created until">
        {(p) => <Input {...p} name="to" type="date" defaultValue={filters.to ?? ""} aria-invalid={invalid("to")} />}
      </Field>
    </FilterCard>
  );
}
