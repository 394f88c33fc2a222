import { execFileSync } from "node:child_process";
import { test as base, expect } from "@playwright/test";

type Business = { id: string; secret_key: string; public_key: string; webhook_token: string; mode: string };

/** A fresh sandbox business per test, created through the CLI (it reaches the running server's database). */
export const test = base.extend<{ business: Business }>({
  business: async ({}, provide, testInfo) => {
    const out = execFileSync(
      "npx",
      ["kassa", "business", "create", "--name", `E2E ${testInfo.title.slice(0, 40)}`, "--json"],
      { env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR ?? ".data-e2e" }, encoding: "utf8" },
    );
    await provide(JSON.parse(out.trim().split("\n").pop()!) as Business);
  },
});

export { expect };

let orderCounter = 0;
export function orderId(): string {
  orderCounter += 1;
  return `e2e-${Date.now()}-${orderCounter}`;
}
