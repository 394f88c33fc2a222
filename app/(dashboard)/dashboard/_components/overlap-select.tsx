import { Label } from "@/components/ui/input";
import { Select } from "@/components/ui/select";

export type OverlapChoice = { seconds: number; label: string };

/** How long an old credential keeps working after a roll or rotation; one day unless chosen otherwise. */
export function OverlapSelect({ id, label, overlaps }: { id: string; label: string; overlaps: OverlapChoice[] }) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Select id={id} name="overlap" defaultValue={String(24 * 60 * 60)}>
        {overlaps.map((o) => (
          <option key={o.seconds} value={o.seconds}>
            {o.label}
          </option>
        ))}
      </Select>
    </div>
  );
}
