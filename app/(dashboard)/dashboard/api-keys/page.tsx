import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Pagination } from "@/components/ui/pagination";
import { rollOverlapChoices } from "@/lib/dashboard/api-key-actions";
import { listApiKeys } from "@/lib/auth/list-api-keys";
import { previousCursor } from "@/lib/dashboard/previous-cursor";
import { getDb } from "@/lib/db";
import { requireStaffFor, StaffForbiddenError } from "@/lib/staff/current-staff";
import { ApiKeysManager } from "./api-keys-manager";

export const metadata = { title: "API keys" };

const pageSize = 25;

async function ownerOrAdmin() {
  try {
    return await requireStaffFor("api_keys");
  } catch (error) {
    if (error instanceof StaffForbiddenError) return null;
    throw error;
  }
}

// GET /dashboard/api-keys?after=: the business's keys, newest first (owner or support only).
export default async function ApiKeysPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const staff = await ownerOrAdmin();
  if (!staff)
    return (
      <div className="grid gap-6">
        <h1 className="text-2xl font-semibold tracking-tight">API keys</h1>
        <Card role="alert" className="max-w-xl">
          <CardHeader>
            <CardTitle>Only owners manage API keys</CardTitle>
            <CardDescription>Your role in this business does not hold its credentials. Ask an owner of the business.</CardDescription>
          </CardHeader>
        </Card>
      </div>
    );
  const raw = (await searchParams).after;
  const after = typeof raw === "string" && /^key_[0-9A-Z]{26}$/.test(raw) ? raw : undefined;
  const db = await getDb();
  const page = await listApiKeys(db, staff.businessId, { limit: pageSize, starting_after: after });
  const previous = after ? await previousCursor(db, "api_keys", staff.businessId, page.data[0]?.id ?? after, pageSize) : null;
  const last = page.data.at(-1)?.id;

  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">API keys</h1>
      <Card>
        <CardHeader>
          <CardTitle>Keys of this business</CardTitle>
          <CardDescription>
            Secret keys call the API from your server; public keys only create checkout sessions from a browser. A key is shown once, when it is created
            or rolled; afterwards only its prefix.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <ApiKeysManager keys={page.data} businessId={staff.businessId} overlaps={rollOverlapChoices.map((c) => ({ ...c }))} />
          {(previous !== null || (page.has_more && last)) && (
            <Pagination
              label="API keys pages"
              previousHref={previous === null ? null : previous === "" ? "/dashboard/api-keys" : `/dashboard/api-keys?after=${previous}`}
              nextHref={page.has_more && last ? `/dashboard/api-keys?after=${last}` : null}
            />
          )}
        </CardContent>
      </Card>
    </div>
  );
}
