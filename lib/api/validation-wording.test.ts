import { beforeAll, describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { payoutBusiness, payoutUser } from "@/lib/payouts/payout-test-helpers";
import { api, sessionBody } from "@/test/helpers";

// Every validation message is written for people, in the API's own style ("seconds must be an
// integer from 1 to …"), never the validator's default text ("Too small: expected number to be
// >=1"). The sweep sends bad values of each documented body field and query parameter to every
// operation and reads every message of every 400.

/** Zod's own wording (v4), which must never reach a caller. */
const zodWording =
  /Invalid input|Invalid option|Invalid (string|element|key|union|format|literal)|Too (small|big)|Unrecognized keys?|expected [a-z"]+.* to (be|have)|, received [a-z]+|Expected [a-z]+, received/;

const badValues: unknown[] = [0, -1, 1.5, 1e12, "", "x", "x".repeat(5000), true, null, [], {}, { a: 1 }, [1, "a"]];
const badQueryValues = ["", "x", "-1", "0", "1000", "1.5", "0000-01-01", "%00"];

type Operation = {
  parameters?: { name: string; in: string }[];
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown>; $ref?: string } }> };
};

let ids: Record<string, string>;
let secretKey: string;
let hash: string;

beforeAll(async () => {
  const biz = await payoutBusiness(1_000_000);
  secretKey = biz.secretKey;
  hash = (await payoutUser(biz.secretKey, 50_000)).hash;
  const session = await api<{ session_id: string }>("POST", "/session", { key: secretKey, body: sessionBody() });
  ids = { session_id: session.body.session_id };
}, 120_000);

/** The request body's property names, through a `$ref` to a component when there is one. */
function bodyFields(document: ReturnType<typeof buildOpenApiDocument>, op: Operation): string[] {
  let schema = op.requestBody?.content?.["application/json"]?.schema;
  if (schema?.$ref) schema = (document.components?.schemas as Record<string, typeof schema>)[schema.$ref.split("/").pop()!];
  return Object.keys(schema?.properties ?? {});
}

/** Every request of the sweep: each body field and query parameter with each bad value. */
function sweep(): { method: string; path: string; body?: unknown }[] {
  const document = buildOpenApiDocument();
  const requests: { method: string; path: string; body?: unknown }[] = [];
  for (const [template, item] of Object.entries(document.paths ?? {})) {
    if (template.startsWith("/sandbox-provider/")) continue;
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? "x");
    for (const [method, raw] of Object.entries(item as Record<string, Operation>)) {
      if (!["get", "post", "delete", "patch", "put"].includes(method)) continue;
      const query = (raw.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name);
      for (const name of query)
        for (const value of badQueryValues)
          requests.push({ method: method.toUpperCase(), path: `${path}?${name}=${encodeURIComponent(value)}` });
      if (method === "get") continue;
      requests.push({ method: "POST", path, body: {} }, { method: "POST", path, body: { unknown_field: 1 } });
      for (const field of bodyFields(document, raw))
        for (const value of badValues) requests.push({ method: method.toUpperCase(), path, body: { [field]: value } });
    }
  }
  return requests;
}

describe("validation messages", () => {
  it("POST /sandbox/clock/advance {seconds: 0} names the range in words", async () => {
    const res = await api<Record<string, string[]>>("POST", "/sandbox/clock/advance", { key: secretKey, body: { seconds: 0 } });
    expect(res.status).toBe(400);
    expect(res.body.seconds?.join(" ")).toMatch(/^seconds must be .*1/);
    expect(res.body.seconds?.join(" ")).not.toMatch(zodWording);
  });

  it("no 400 of any operation carries the validator's own wording", async () => {
    const leaks: string[] = [];
    let answered400 = 0;
    for (const request of sweep()) {
      const headers = { "x-payout-hash": hash };
      const res = await api<unknown>(request.method, request.path, { key: secretKey, body: request.body, headers });
      if (res.status !== 400) continue;
      answered400++;
      const messages = JSON.stringify(res.body);
      if (zodWording.test(messages)) leaks.push(`${request.method} ${request.path} ${JSON.stringify(request.body)} → ${messages}`);
    }
    expect(answered400).toBeGreaterThan(100);
    expect(leaks).toEqual([]);
  }, 600_000);
});
