import Link from "next/link";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";

export default function PaymentNotFound() {
  return (
    <Card className="max-w-xl">
      <CardHeader>
        <CardTitle>No such payment</CardTitle>
        <CardDescription>This business has no payment with that session id.</CardDescription>
      </CardHeader>
      <CardContent>
        <Link href="/dashboard/payments" className="text-sm font-medium text-primary underline-offset-4 hover:underline">
          Back to payments
        </Link>
      </CardContent>
    </Card>
  );
}
