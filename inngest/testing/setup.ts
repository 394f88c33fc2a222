import { afterAll, beforeAll } from "vitest";
import { resetEnv } from "@/lib/env";

// Test support for Inngest functions: they run jobs with the environment's settings, so let
// webhooks reach the loopback receiver and compress the retry schedule (mocked sleeps then only
// need to wait 50 ms of real time for the next attempt to be due).
export const mockedSleepMs = 60;

export function setUpInngestTestEnv() {
  beforeAll(() => {
    process.env.ALLOW_PRIVATE_WEBHOOK_URLS = "1";
    process.env.WEBHOOK_RETRY_SCHEDULE = "0,0.05,0.05,0.05";
    resetEnv();
  });
  afterAll(() => {
    delete process.env.ALLOW_PRIVATE_WEBHOOK_URLS;
    delete process.env.WEBHOOK_RETRY_SCHEDULE;
    resetEnv();
  });
}

/** Mocks of the function's sleeps (`wait-1` …): each waits a little real time, then resumes. */
export function mockedSleeps(count = 8) {
  return Array.from({ length: count }, (_, i) => ({
    id: `wait-${i + 1}`,
    handler: () => new Promise<null>((resolve) => setTimeout(() => resolve(null), mockedSleepMs)),
  }));
}
