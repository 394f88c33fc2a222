import { afterEach, describe, expect, it } from "vitest";
import { functions } from "@/inngest/functions";
import { resetEnv } from "@/lib/env";

describe("/api/inngest", () => {
  afterEach(() => {
    delete process.env.INNGEST_DEV;
    resetEnv();
  });

  it("serves every function to Inngest (introspection, dev mode)", async () => {
    process.env.INNGEST_DEV = "1";
    resetEnv();
    const { GET } = await import("./route");
    const response = await GET(new Request("http://localhost:3000/api/inngest") as never, undefined);
    const body = (await response.json()) as Record<string, unknown>;
    expect(response.status).toBe(200);
    // Every function in the list, crons included (a function Inngest cannot read is left out of the count).
    expect(functions.length).toBeGreaterThanOrEqual(8);
    expect(body).toMatchObject({ function_count: functions.length, mode: "dev" });
  });
});
