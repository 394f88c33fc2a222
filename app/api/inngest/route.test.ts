import { afterEach, describe, expect, it } from "vitest";
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
    expect(body).toMatchObject({ function_count: 6, mode: "dev" });
  });
});
