import { Skeleton } from "@/components/ui/skeleton";
import { ListSkeleton } from "../_components/list-skeleton";

export default function Loading() {
  return (
    <ListSkeleton label="Loading disputes" titleClassName="h-8 w-48" rows={8} rowClassName="h-10">
      <Skeleton className="h-24" />
    </ListSkeleton>
  );
}
