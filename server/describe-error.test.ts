import { describe, expect, it } from "vitest";
import { sql } from "@/db/client";
import { testDb } from "@/test/helpers";
import { describeError } from "./describe-error";

describe("describeError", () => {
  it("names a failed query's cause, not only the statement", async () => {
    const error = await testDb()
      .execute(sql`select secret from no_such_table where token = ${"sk_test_hidden"}`)
      .then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    const text = describeError(error);
    expect(text).toContain('relation "no_such_table" does not exist');
    expect(text).toContain("select secret from no_such_table");
    expect(text).not.toContain("sk_test_hidden"); // parameters stay out of the message
  });

  it("keeps a plain error's message and its causes", () => {
    const error = new Error("could not open", { cause: new Error("EACCES: permission denied") });
    expect(describeError(error)).toBe("could not open: EACCES: permission denied");
  });
});
