import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input, Label } from "@/components/ui/input";
import { Pagination } from "@/components/ui/pagination";
import { Select } from "@/components/ui/select";
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
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

// GET /dashboard/audit?actor=&action=&from=&to=&after=: who changed what, newest first (owners and support).
export default async function AuditPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const staff = await ownerOrAdmin();
  if (!staff)
    return (
      <div className="grid gap-6">
        <h1 className="text-2xl font-semibold tracking-tight">Audit log</h1>
        <Card role="alert" className="max-w-xl">
          <CardHeader>
            <CardTitle>Only owners read the audit log</CardTitle>
            <CardDescription>
              Your role in this business does not allow it. Ask an owner of the business.
            </CardDescription>
          </CardHeader>
        </Card>
      </div>
    );
  const parsed = parseAuditPageFilters(await searchParams);
  const { filters } = parsed;
  const page = await listAuditEvents(await getDb(), staff.businessId, auditServiceFilters(filters, pageSize));
  const filtered = Boolean(filters.actor || filters.action || filters.from || filters.to);
  const invalid = (key: string) => (parsed.fields[key] ? true : undefined);

  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Audit log</h1>
      <p className="text-sm text-muted-foreground">
        Every change made by your staff, by support or with a secret key: who, what, when and from where.
        Entries are never changed or removed.
      </p>

      {/* Keyed by the filters: "Clear filters" (a client navigation) must reset the fields too. */}
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
        <div className="grid gap-1.5">
          <Label htmlFor="actor">Who</Label>
          <Input
            id="actor"
            name="actor"
            defaultValue={filters.actor ?? ""}
            placeholder="E-mail or key prefix"
            autoComplete="off"
            aria-invalid={invalid("actor")}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="action">Action</Label>
          <Select
            id="action"
            name="action"
            defaultValue={filters.action ?? ""}
            aria-invalid={invalid("action")}
          >
            <option value="">Any action</option>
            {auditActions.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </Select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="from">From</Label>
          <Input
            id="from"
            name="from"
            type="date"
            defaultValue={filters.from ?? ""}
            aria-invalid={invalid("from")}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="to">To</Label>
          <Input id="to" name="to" type="date" defaultValue={filters.to ?? ""} aria-invalid={invalid("to")} />
        </div>
      </FilterCard>

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
            <div role="region" aria-label="Audit log entries" tabIndex={0} className="overflow-x-auto">
              <table aria-label="Audit log" className="w-full caption-bottom text-sm">
                <TableHeader>
                  <TableRow>
                    <TableHead>When</TableHead>
                    <TableHead>Who</TableHead>
                    <TableHead>Action</TableHead>
                    <TableHead>Target</TableHead>
                    <TableHead>Changes</TableHead>
                    <TableHead>From</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {page.data.map((event) => (
                    <TableRow key={event.id} data-testid="audit-row">
                      <TableCell label="When" className="whitespace-nowrap">{formatDateTime(event.created_at)}</TableCell>
                      <TableCell label="Who" data-testid="audit-actor" className="min-w-48">
                        {event.actor.type === "user" ? event.actor.email : event.actor.type === "system" ? "Kassa" : `API key ${event.actor.prefix}`}
                      </TableCell>
                      <TableCell label="Action" className="font-mono text-xs">{event.action}</TableCell>
                      <TableCell label="Target" className="min-w-40 font-mono text-xs">
                        {event.target.type} {event.target.id}
                      </TableCell>
                      <TableCell label="Changes" className="text-xs">
                        <Changes changes={event.changes} />
                      </TableCell>
                      <TableCell label="From" className="text-xs">
                        <div className="min-w-0">
                          {event.ip ?? "—"}
                          {event.user_agent && (
                            <span
                              className="block max-w-48 truncate text-muted-foreground"
                              title={event.user_agent}
                            >
                              {event.user_agent}
                            </span>
                          )}
                        </div>
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </table>
            </div>
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
