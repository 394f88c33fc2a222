"use client";

import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";

// Any page that failed to render (most often the database being unavailable for a moment, decision
// 0065): a calm word and a retry, never a stack or a scare. Nothing a payer did is lost: a payment
// in flight is settled from its provider, and the page shows its outcome once it is back.
export default function PageError({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  return (
    <main className="mx-auto flex min-h-[60vh] max-w-xl items-center p-6">
      <Card role="alert" className="w-full">
        <CardHeader>
          <CardTitle>This page is unavailable for a moment</CardTitle>
          <CardDescription>
            {`We could not load it just now${error.digest ? ` (reference ${error.digest})` : ""}. Please try again in a few seconds. If you were paying, do not pay again: reload this page to see the payment's outcome.`}
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Button onClick={reset}>Try again</Button>
        </CardContent>
      </Card>
    </main>
  );
}
