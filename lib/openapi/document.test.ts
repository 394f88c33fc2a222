import SwaggerParser from "@apidevtools/swagger-parser";
import { describe, expect, it } from "vitest";
import { routes } from "@/lib/api/routes";
import { api } from "@/test/helpers";
import { buildOpenApiDocument, buildPublicOpenApiDocument } from "./document";

/** `/payment/:session_id` as OpenAPI writes it: `/payment/{session_id}`. */
const openApiPath = (pattern: string) => pattern.replace(/:([A-Za-z0-9_]+)/g, "{$1}");

describe("the OpenAPI document", () => {
  const document = buildOpenApiDocument();

  it("documents every route of the route table", () => {
    const missing = routes
      .filter((route) => !document.paths?.[openApiPath(route.pattern)]?.[route.method.toLowerCase() as "get"])
      .map((route) => `${route.method} ${openApiPath(route.pattern)}`);
    expect(missing, `routes missing from the OpenAPI document:\n${missing.join("\n")}`).toEqual([]);
  });

  it("documents no path the router does not serve", () => {
    const served = new Set(
      routes.map((route) => `${route.method.toLowerCase()} ${openApiPath(route.pattern)}`),
    );
    const extra = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
      ["get", "post", "put", "patch", "delete"]
        .filter((method) => item[method as "get"] && !served.has(`${method} ${path}`))
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(extra).toEqual([]);
  });

  it("is a valid OpenAPI 3.1 document", async () => {
    // validate() dereferences in place: give it a copy.
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
    expect(document.openapi).toBe("3.1.0");
    expect(document.info.version).toBe("1.0.0");
  });

  it("is a valid OpenAPI 3.1 document without its internal operations too", async () => {
    await expect(SwaggerParser.validate(structuredClone(buildPublicOpenApiDocument()) as never)).resolves.toBeTruthy();
  });

  it("is served at {base_url}/openapi.json without a key, open to any origin: the public document", async () => {
    const result = await api("GET", "/openapi.json", { headers: { origin: "https://shop.example" } });
    expect(result.status).toBe(200);
    expect(result.body).toEqual(JSON.parse(JSON.stringify(buildPublicOpenApiDocument())));
    expect(result.headers.get("access-control-allow-origin")).toBe("*");
    expect(result.headers.get("content-type")).toMatch(/^application\/json/);
  });
});
