import { Skeleton } from "@/components/ui/skeleton";
import { ListSkeleton } from "../_components/list-skeleton";

export default function Loading() {
  return (
    <ListSkeleton label="Loading webhooks" titleClassName="h-8 w-40" rows={6} rowClassName="h-12">
      <Skeleton className="h-48" />
      <Skeleton className="h-24" />
    </ListSkeleton>
  );
}
