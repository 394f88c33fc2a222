"use client";

import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";

// A page that failed to load (its data, or the staff member may not read it): say so, offer a retry.
export default function DashboardError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const forbidden = error.name === "StaffForbiddenError";
  return (
    <Card role="alert" className="max-w-xl">
      <CardHeader>
        <CardTitle>{forbidden ? "You may not see this" : "This page could not be loaded"}</CardTitle>
        <CardDescription>
          {forbidden
            ? "Your role in this business does not allow it. Ask an owner of the business."
            : `Something went wrong on our side${error.digest ? ` (reference ${error.digest})` : ""}. Try again in a moment.`}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button onClick={reset}>Try again</Button>
      </CardContent>
    </Card>
  );
}
