import { Skeleton } from "@/components/ui/skeleton";
import { ListSkeleton } from "../_components/list-skeleton";

export default function Loading() {
  return (
    <ListSkeleton label="Loading the team" titleClassName="h-8 w-32" rows={4} rowClassName="h-16">
      <Skeleton className="h-24" />
    </ListSkeleton>
  );
}
