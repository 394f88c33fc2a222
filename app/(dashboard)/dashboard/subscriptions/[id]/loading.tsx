import { Skeleton } from "@/components/ui/skeleton";

export default function Loading() {
  return (
    <div className="grid gap-6" role="status" aria-label="Loading the subscription">
      <Skeleton className="h-8 w-64" />
      <Skeleton className="h-28" />
      <Skeleton className="h-96" />
    </div>
  );
}
