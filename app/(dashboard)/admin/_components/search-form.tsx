import { Search } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/input";

/** A GET search form (works without JavaScript): one text field, search and clear. */
export function SearchForm({ action, label, placeholder, q, name = "q" }: { action: string; label: string; placeholder: string; q?: string; name?: string }) {
  const id = `${name}-search`;
  return (
    <form method="get" action={action} role="search" aria-label={label} className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end">
      <div className="grid gap-1.5">
        <Label htmlFor={id}>{label}</Label>
        <Input id={id} name={name} type="search" defaultValue={q ?? ""} placeholder={placeholder} autoComplete="off" maxLength={200} />
      </div>
      <div className="flex gap-2">
        <Button type="submit">
          <Search aria-hidden /> Search
        </Button>
        {q ? (
          <Button asChild variant="ghost">
            <Link href={action}>Clear</Link>
          </Button>
        ) : null}
      </div>
    </form>
  );
}
