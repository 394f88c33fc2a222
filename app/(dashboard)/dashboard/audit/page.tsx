import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Pagination } from "@/components/ui/pagination";
import { Select } from "@/components/ui/select";
import { DataTable, type DataTableColumn } from "@/components/ui/data-table";
import type { AuditEventView } from "@/lib/audit/audit-schemas";
import { listAuditEvents } from "@/lib/audit/list-audit-events";
import { auditActions } from "@/lib/audit/record-audit";
import {
  auditServiceFilters,
  parseAuditPageFilters,
  type AuditPageFilters,
} from "@/lib/dashboard/audit-filters";
import { formatDateTime } from "@/lib/dashboard/format";
import { getDb } from "@/lib/db";
import { requireStaffFor, StaffForbiddenError } from "@/lib/staff/current-staff";
import { FilterCard } from "../_components/filter-card";

export const metadata = { title: "Audit log" };

const pageSize = 50;

async function ownerOrAdmin() {
  try {
    return await requireStaffFor("audit");
  } catch (error) {
    if (error instanceof StaffForbiddenError) return null;
    throw error;
  }
}

function pageHref(filters: AuditPageFilters, after: string): string {
  const params = new URLSearchParams();
  for (const key of ["actor", "action", "from", "to"] as const)
    if (filters[key]) params.set(key, filters[key]);
  params.set("after", after);
  return `/dashboard/audit?${params.toString()}`;
}

const shown = (value: unknown) =>
  value === null || value === undefined ? "—" : typeof value === "string" ? value : JSON.stringify(value);

function Changes({ changes }: { changes: AuditEventView["changes"] }) {
  const entries = Object.entries(changes);
  if (!entries.length) return <span className="text-muted-foreground">—</span>;
  return (
    <ul className="grid gap-0.5">
      {entries.map(([field, change]) => (
        <li key={field} className="[overflow-wrap:anywhere]">
          <span className="font-medium">{field}</span>: {shown(change.from)} → {shown(change.to)}
        </li>
      ))}
    </ul>
  );
}

function From({ event }: { event: AuditEventView }) {
  return (
    <div className="min-w-0">
      {event.ip ?? "—"}
      {event.user_agent && (
        <span className="block max-w-48 truncate text-muted-foreground" title={event.user_agent}>
          {event.user_agent}
        </span>
      )}
    </div>
  );
}

const actorName = ({ actor }: AuditEventView) => (actor.type === "user" ? actor.email : actor.type === "system" ? "Kassa" : `API key ${actor.prefix}`);

const columns: DataTableColumn<AuditEventView>[] = [
  { id: "when", header: "When", className: "whitespace-nowrap", cell: (event) => formatDateTime(event.created_at) },
  { id: "who", header: "Who", testId: "audit-actor", className: "min-w-48", cell: actorName },
  { id: "action", header: "Action", className: "font-mono text-xs", cell: (event) => event.action },
  {
    id: "target",
    header: "Target",
    className: "min-w-40 font-mono text-xs",
    cell: (event) => (
      <>
        {event.target.type} {event.target.id}
      </>
    ),
  },
  { id: "changes", header: "Changes", className: "text-xs", cell: (event) => <Changes changes={event.changes} /> },
  { id: "from", header: "From", className: "text-xs", cell: (event) => <From event={event} /> },
];

function NotForYourRole() {
  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Audit log</h1>
      <Card role="alert" className="max-w-xl">
        <CardHeader>
          <CardTitle>Only owners read the audit log</CardTitle>
          <CardDescription>Your role in this business does not allow it. Ask an owner of the business.</CardDescription>
        </CardHeader>
      </Card>
    </div>
  );
}

function AuditFilters({ parsed, filtered }: { parsed: ReturnType<typeof parseAuditPageFilters>; filtered: boolean }) {
  const { filters } = parsed;
  const invalid = (key: string) => (parsed.fields[key] ? true : undefined);
  return (
    // Keyed by the filters: "Clear filters" (a client navigation) must reset the fields too.
    <FilterCard
      key={JSON.stringify(filters)}
      action="/dashboard/audit"
      label="Filter the audit log"
      formClassName="grid gap-3 sm:grid-cols-5 sm:items-end"
      buttonsClassName="flex gap-2"
      submitLabel="Filter"
      filtered={filtered}
      ignored={parsed.message}
    >
      <Field id="actor" label="Who">
        {(p) => <Input {...p} name="actor" defaultValue={filters.actor ?? ""} placeholder="E-mail or key prefix" autoComplete="off" aria-invalid={invalid("actor")} />}
      </Field>
      <Field id="action" label="Action">
        {(p) => (
          <Select {...p} name="action" defaultValue={filters.action ?? ""} aria-invalid={invalid("action")}>
            <option value="">Any action</option>
            {auditActions.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field id="from" label="From">
        {(p) => <Input {...p} name="from" type="date" defaultValue={filters.from ?? ""} aria-invalid={invalid("from")} />}
      </Field>
      <Field id="to" label="To">
        {(p) => <Input {...p} name="to" type="date" defaultValue={filters.to ?? ""} aria-invalid={invalid("to")} />}
      </Field>
    </FilterCard>
  );
}

// GET /dashboard/audit?actor=&action=&from=&to=&after=: who changed what, newest first (owners and support).
export default async function AuditPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const staff = await ownerOrAdmin();
  if (!staff) return <NotForYourRole />;
  const parsed = parseAuditPageFilters(await searchParams);
  const { filters } = parsed;
  const page = await listAuditEvents(await getDb(), staff.businessId, auditServiceFilters(filters, pageSize));
  const filtered = Boolean(filters.actor || filters.action || filters.from || filters.to);

  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Audit log</h1>
      <p className="text-sm text-muted-foreground">
        Every change made by your staff, by support or with a secret key: who, what, when and from where.
        Entries are never changed or removed.
      </p>

      <AuditFilters parsed={parsed} filtered={filtered} />

      <Card>
        <CardContent className="grid gap-4 pt-2 sm:pt-3">
          {page.data.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted-foreground">
              {filtered ? "No entry matches these filters." : "Nothing has been changed yet."}
            </p>
          ) : (
            // Wide: it scrolls sideways in a region the keyboard can reach; on a phone each entry is
            // a card (labelled cells). Addresses and ids wrap only where they must, never a
            // letter to a line.
            <DataTable
              aria-label="Audit log"
              regionLabel="Audit log entries"
              caption="Audit log"
              columns={columns}
              data={page.data}
              rowKey={(event) => event.id}
              rowProps={() => ({ "data-testid": "audit-row" })}
            />
          )}
          {page.has_more && (
            <Pagination
              label="Audit log pages"
              previousHref={null}
              nextHref={pageHref(filters, page.data.at(-1)!.id)}
            />
          )}
        </CardContent>
      </Card>
    </div>
  );
}
