"use client";

import { createContext, useActionState, useContext } from "react";
import { useKeptForm } from "@/components/use-kept-form";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { DataTable, type DataTableColumn } from "@/components/ui/data-table";
import { Input, Label } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import type { ApiKeyView } from "@/lib/auth/api-key-view";
import { formatDateTime } from "@/lib/dashboard/format";
import { ActionOutcome } from "../_components/action-outcome";
import { FormDialog } from "../_components/form-dialog";
import { OverlapSelect, type OverlapChoice } from "../_components/overlap-select";
import { createApiKeyAction, revokeApiKeyAction, rollApiKeyAction } from "./actions";
import { SecretOnce } from "../_components/secret-once";

const statusTone = { active: "success", expiring: "warning", revoked: "destructive", expired: "outline" } as const;

function KeyStatus({ apiKey }: { apiKey: ApiKeyView }) {
  return (
    <span className="grid gap-0.5">
      <Badge variant={statusTone[apiKey.status]}>{apiKey.status}</Badge>
      {apiKey.status === "expiring" && <span className="text-xs text-muted-foreground">until {formatDateTime(apiKey.expires_at)}</span>}
    </span>
  );
}

// What every row's actions need; a context, so the columns below stay the same functions across
// renders (TanStack renders a cell function as a component: a new function would remount the row
// and lose the answer of its roll or revoke).
const KeysContext = createContext<{ businessId: string; overlaps: OverlapChoice[] }>({ businessId: "", overlaps: [] });

/** Roll (with the overlap choice) and revoke (confirmed) for one key. */
function KeyActions({ apiKey }: { apiKey: ApiKeyView }) {
  const { businessId, overlaps } = useContext(KeysContext);
  const [rollResult, roll, rolling] = useActionState(rollApiKeyAction, null);
  const [revokeResult, revoke, revoking] = useActionState(revokeApiKeyAction, null);
  const usable = apiKey.status === "active" || apiKey.status === "expiring";
  const label = `${apiKey.kind} key ${apiKey.prefix}${apiKey.name ? ` (${apiKey.name})` : ""}`;
  if (!usable && !rollResult && !revokeResult) return <span className="text-muted-foreground">—</span>;
  return (
    <div className="grid min-w-[14rem] gap-2 whitespace-normal">
      {usable && (
        <div className="flex flex-wrap gap-2">
          {apiKey.status === "active" && (
            <FormDialog
              trigger={
                <Button size="sm" variant="outline" aria-label={`Roll ${label}`}>
                  Roll
                </Button>
              }
              title={<>Roll {label}</>}
              description="A new key of the same kind and name replaces it. Choose how long the old key keeps working."
              action={roll}
              pending={rolling}
              cancelLabel="Cancel"
              submitLabel="Roll key"
            >
              <input type="hidden" name="business" value={businessId} />
              <input type="hidden" name="key" value={apiKey.id} />
              <OverlapSelect id={`overlap-${apiKey.id}`} label="The old key keeps working for" overlaps={overlaps} />
            </FormDialog>
          )}
          <FormDialog
            trigger={
              <Button size="sm" variant="destructive" aria-label={`Revoke ${label}`}>
                Revoke
              </Button>
            }
            title={<>Revoke {label}?</>}
            description="It stops working at once: every request with it gets 401. This cannot be undone."
            action={revoke}
            pending={revoking}
            cancelLabel="Keep it"
            submitLabel="Revoke key"
            submitVariant="destructive"
          >
            <input type="hidden" name="business" value={businessId} />
            <input type="hidden" name="key" value={apiKey.id} />
          </FormDialog>
        </div>
      )}
      {rollResult?.ok && rollResult.data ? (
        <SecretOnce id={`rolled-${apiKey.id}`} label="New key" value={rollResult.data.key} note={rollResult.message} />
      ) : (
        <ActionOutcome result={rollResult} />
      )}
      <ActionOutcome result={revokeResult} />
    </div>
  );
}

const columns: DataTableColumn<ApiKeyView>[] = [
  {
    id: "key",
    header: "Key",
    cell: (row) => (
      <span className="grid">
        <span className="font-mono text-xs">{row.prefix}</span>
        <span className="text-xs text-muted-foreground">{row.name ?? "No name"}</span>
      </span>
    ),
  },
  { id: "kind", header: "Kind", cell: (row) => row.kind },
  { id: "status", header: "Status", cell: (row) => <KeyStatus apiKey={row} /> },
  { id: "created", header: "Created", cell: (row) => formatDateTime(row.created_at) },
  {
    id: "actions",
    header: "Actions",
    cell: (row) => <KeyActions apiKey={row} />,
  },
];

/** The create form and the keys table (prefix and status only; a key in clear only right after create or roll). */
export function ApiKeysManager({ keys, businessId, overlaps }: { keys: ApiKeyView[]; businessId: string; overlaps: OverlapChoice[] }) {
  const { result: created, pending: creating, form: createForm } = useKeptForm(createApiKeyAction, { resetOnSuccess: true });
  return (
    <div className="grid gap-6">
      <form {...createForm} className="grid gap-3 sm:grid-cols-[10rem_1fr_auto] sm:items-end" aria-label="Create an API key">
        <input type="hidden" name="business" value={businessId} />
        <div className="grid gap-1.5">
          <Label htmlFor="kind">Kind</Label>
          <Select id="kind" name="kind" defaultValue="secret">
            <option value="secret">Secret (server)</option>
            <option value="public">Public (browser)</option>
          </Select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="name">Name (optional)</Label>
          <Input id="name" name="name" maxLength={100} autoComplete="off" placeholder="e.g. Production backend" aria-invalid={created && !created.ok && created.fields?.name ? true : undefined} />
        </div>
        <Button type="submit" disabled={creating}>
          Create key
        </Button>
      </form>
      {created?.ok && created.data ? (
        <SecretOnce id="created-key" label="New key" value={created.data.key} note={created.message} />
      ) : (
        <ActionOutcome result={created} />
      )}
      <KeysContext value={{ businessId, overlaps }}>
        <DataTable columns={columns} data={keys} caption="API keys" empty="No API keys." rowKey={(k) => k.id} />
      </KeysContext>
    </div>
  );
}
