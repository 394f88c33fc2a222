import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseOrThrow } from "./validation";
import { ValidationError } from "@/lib/errors";

// Fields without a message of their own get the API's wording, field name first.

const schema = z.strictObject({
  seconds: z.number().int().min(1).max(100),
  kind: z.enum(["secret", "public"]),
  items: z.array(z.object({ name: z.string().min(1) })).min(1),
  metadata: z.record(z.string(), z.string()).optional(),
  email: z.email().optional(),
  own: z.string({ error: "own has its own message" }).optional(),
});

function fieldsOf(input: unknown): Record<string, string[]> {
  try {
    parseOrThrow(schema, input);
  } catch (error) {
    if (error instanceof ValidationError) return error.fields;
    throw error;
  }
  throw new Error("no validation error");
}

describe("house messages", () => {
  it.each([
    [{ kind: "secret", items: [{ name: "a" }] }, { seconds: ["seconds is required"] }],
    [{ seconds: 0, kind: "secret", items: [{ name: "a" }] }, { seconds: ["seconds must be at least 1"] }],
    [{ seconds: 101, kind: "secret", items: [{ name: "a" }] }, { seconds: ["seconds must be at most 100"] }],
    [{ seconds: 1.5, kind: "secret", items: [{ name: "a" }] }, { seconds: ["seconds must be an integer"] }],
    [{ seconds: "1", kind: "secret", items: [{ name: "a" }] }, { seconds: ["seconds must be a number"] }],
    [{ seconds: 1, kind: "x", items: [{ name: "a" }] }, { kind: ["kind must be one of secret, public"] }],
    [{ seconds: 1, items: [{ name: "a" }] }, { kind: ["kind is required"] }],
    [{ seconds: 1, kind: "secret", items: [] }, { items: ["items must not be empty"] }],
    [{ seconds: 1, kind: "secret", items: [{ name: "" }] }, { items: ["[0].name: name must not be empty"] }],
    [{ seconds: 1, kind: "secret", items: [{ name: "a" }], metadata: { k: 1 } }, { metadata: ["k: k must be a string"] }],
    [{ seconds: 1, kind: "secret", items: [{ name: "a" }], email: "x" }, { email: ["email must be a valid e-mail address"] }],
    [{ seconds: 1, kind: "secret", items: [{ name: "a" }], own: 1 }, { own: ["own has its own message"] }],
    [{ seconds: 1, kind: "secret", items: [{ name: "a" }], extra: 1 }, { body: ["unknown field: extra"] }],
    [[1], { body: ["the body must be an object"] }],
  ])("%j → %j", (input, expected) => {
    expect(fieldsOf(input)).toEqual(expected);
  });
});
