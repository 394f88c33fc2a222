import { NextRequest } from "next/server";
import { describe, expect, it, vi } from "vitest";
import { inngestEnabled } from "@/lib/env";
import { log } from "@/lib/log";
import { GET, POST, PUT } from "./route";

describe("/api/inngest without Inngest configured", () => {
  it.each([
    ["GET", GET],
    ["POST", POST],
    ["PUT", PUT],
  ] as const)("answers %s with a 404 in the API's shape and logs no error", async (method, handler) => {
    expect(inngestEnabled()).toBe(false);
    const error = vi.spyOn(log, "error");
    const consoleError = vi.spyOn(console, "error");
    const request = new NextRequest("http://localhost:3000/api/inngest?fnId=x&stepId=step", {
      method,
      ...(method === "GET" ? {} : { body: JSON.stringify({ event: {}, steps: {} }) }),
    });
    const response = await handler(request, undefined);
    const calls = [...error.mock.calls, ...consoleError.mock.calls];
    error.mockRestore();
    consoleError.mockRestore();
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "not_found", message: expect.any(String) });
    expect(calls).toEqual([]);
  });
});
