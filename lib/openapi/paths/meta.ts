import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { jsonResponse, security } from "../common";

/** The document itself. */
export function registerMeta(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: "/openapi.json",
    tags: ["Meta"],
    operationId: "getOpenApiDocument",
    summary: "This OpenAPI document",
    description:
      "The OpenAPI 3.1 description of this API, generated from the server's own schemas. Public, no key.",
    security: security.none,
    responses: {
      200: jsonResponse(
        "The OpenAPI 3.1 document.",
        z.looseObject({ openapi: z.literal("3.1.0"), info: z.looseObject({ version: z.string() }) }).meta({
          id: "OpenApiDocument",
        }),
      ),
    },
  });
}
