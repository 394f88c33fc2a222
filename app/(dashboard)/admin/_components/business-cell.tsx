import { ActionForm } from "@/components/action-form";
import { Badge } from "@/components/ui/badge";
import type { BusinessRef } from "@/lib/admin/support-queries";
import { supportAction } from "../actions";

/** A business's name, id and mode; "Open" shows it in /dashboard as support (at `then`, a dashboard path). */
export function BusinessCell({ business, then }: { business: BusinessRef; then?: string }) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <span className="grid">
        <span className="font-medium">{business.name}</span>
        <span className="font-mono text-xs text-muted-foreground">{business.id}</span>
      </span>
      {business.mode === "sandbox" ? <Badge variant="warning">sandbox</Badge> : null}
      <ActionForm
        action={supportAction}
        hidden={{ intent: "open_business", business_id: business.id, ...(then ? { then } : {}) }}
        submitLabel={<span>Open<span className="sr-only"> {business.name} as support</span></span>}
        variant="link"
        size="sm"
      />
    </div>
  );
}
