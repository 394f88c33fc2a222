"use client";

import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";

// A support page that failed to load: say so, offer a retry.
export default function AdminError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <Card role="alert" className="max-w-xl">
      <CardHeader>
        <CardTitle>This page could not be loaded</CardTitle>
        <CardDescription>Something went wrong on our side{error.digest ? ` (reference ${error.digest})` : ""}. Try again in a moment.</CardDescription>
      </CardHeader>
      <CardContent>
        <Button onClick={reset}>Try again</Button>
      </CardContent>
    </Card>
  );
}
