import type { z } from "zod";
import { ValidationError } from "@/lib/errors";

/** Zod issues as the interface's 400 body: top-level field name → messages. */
export function fieldErrors(error: z.ZodError): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const [head, ...rest] = issue.path;
    const field = head === undefined ? "body" : String(head);
    const where = rest.length ? `${rest.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("").replace(/^\./, "")}: ` : "";
    (fields[field] ??= []).push(`${where}${issue.message}`);
  }
  return fields;
}

export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new ValidationError(fieldErrors(result.error));
  return result.data;
}
