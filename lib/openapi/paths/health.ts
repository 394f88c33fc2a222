import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { jsonResponse, security } from "../common";

const tag = "Health";

const CheckSchema = z
  .object({ ok: z.boolean(), detail: z.string().optional() })
  .meta({ id: "HealthCheck", description: "One readiness check; `detail` says why it failed (or what passed)." });

const ReadinessSchema = z
  .object({
    status: z.enum(["ready", "not_ready"]),
    checks: z.object({
      accepting: CheckSchema.meta({ description: "Listening, and not shutting down." }),
      database: CheckSchema,
      migrations: CheckSchema,
      background: CheckSchema.meta({ description: "The embedded worker polls, or Inngest is configured." }),
    }),
  })
  .meta({ id: "Readiness" });

/** Probes for load balancers and process managers (docs/operations.md). */
export function registerHealth(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: "/health/live",
    tags: [tag],
    operationId: "getLiveness",
    summary: "Liveness probe",
    description: "200 whenever the process answers HTTP; it does not touch the database. No key.",
    security: security.none,
    responses: {
      200: jsonResponse("The process is alive.", z.object({ status: z.literal("ok") }).meta({ id: "Liveness" })),
    },
  });

  registry.registerPath({
    method: "get",
    path: "/health/ready",
    tags: [tag],
    operationId: "getReadiness",
    summary: "Readiness probe",
    description:
      "200 when this process should get traffic: listening and not shutting down, the database answers within 2 s, every shipped migration is applied, and background work runs (the embedded worker polled recently, or Inngest is configured). 503 otherwise; the body lists each check either way. No key.",
    security: security.none,
    responses: {
      200: jsonResponse("Ready.", ReadinessSchema),
      503: jsonResponse("Not ready; the failing checks say why.", ReadinessSchema),
    },
  });
}
