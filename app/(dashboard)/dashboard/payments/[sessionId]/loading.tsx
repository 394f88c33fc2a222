import { Skeleton } from "@/components/ui/skeleton";

export default function Loading() {
  return (
    <div className="grid gap-6" role="status" aria-label="Loading payment">
      <Skeleton className="h-10 w-56" />
      <div className="grid gap-6 xl:grid-cols-[1fr_24rem]">
        <Skeleton className="h-96" />
        <Skeleton className="h-72" />
      </div>
    </div>
  );
}
