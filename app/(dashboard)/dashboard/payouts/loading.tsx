import { Skeleton } from "@/components/ui/skeleton";
import { ListSkeleton } from "../_components/list-skeleton";

export default function Loading() {
  return (
    <ListSkeleton label="Loading payouts" titleClassName="h-8 w-40" rows={6} rowClassName="h-10">
      <div className="grid gap-4 sm:grid-cols-2">
        <Skeleton className="h-24" />
        <Skeleton className="h-24" />
      </div>
      <Skeleton className="h-48" />
    </ListSkeleton>
  );
}
