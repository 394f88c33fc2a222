import { afterEach, describe, expect, it, vi } from "vitest";
import { defaultJobContext } from "@/lib/job-context";
import { claimJobs } from "@/lib/jobs/claim-jobs";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { overrideJobHandler } from "@/lib/jobs/registry";
import { executeClaimedJob } from "@/lib/jobs/run-job";
import { apiHandler } from "@/lib/api/handler";
import { json } from "@/lib/http/respond";
import { createTestBusiness, testDb } from "@/test/helpers";
import { log } from "./log";

/** The JSON lines log.error writes (tests run at LOG_LEVEL=error) while `work` runs. */
async function linesOf(work: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const written: string[] = [];
  const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    written.push(String(chunk));
    return true;
  });
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
  return written.map((line) => JSON.parse(line) as Record<string, unknown>);
}

afterEach(() => vi.restoreAllMocks());

describe("log context", () => {
  it("an API request's lines carry its request id and, once the key is checked, its business id", async () => {
    const biz = await createTestBusiness();
    const handler = apiHandler({
      auth: "secret",
      handle: async () => {
        log.error("inside the handler", { step: 1 });
        return json(200, {});
      },
    });
    const request = new Request("http://localhost/api/x", {
      headers: { authorization: `Bearer ${biz.secretKey}`, "x-request-id": "req-log-1" },
    });
    const lines = await linesOf(() => handler(request));
    expect(lines).toEqual([
      expect.objectContaining({
        message: "inside the handler",
        step: 1,
        requestId: "req-log-1",
        businessId: biz.business.id,
      }),
    ]);
    // Outside any request, nothing is added.
    const outside = await linesOf(async () => log.error("outside"));
    expect(outside[0]).not.toHaveProperty("requestId");
    expect(outside[0]).not.toHaveProperty("businessId");
  });

  it("a job run's lines carry the job id, its kind and its business", async () => {
    const biz = await createTestBusiness();
    const restore = overrideJobHandler("setup_subscription", async () => {
      log.error("inside the job");
      return { status: "done" };
    });
    try {
      const job = await enqueueJob(testDb(), {
        kind: "setup_subscription",
        businessId: biz.business.id,
        payload: {},
      });
      const [claimed] = await claimJobs(testDb(), {
        workerId: "log-test",
        limit: 1,
        leaseMs: 60_000,
        kinds: ["setup_subscription"],
        businessId: biz.business.id,
      });
      expect(claimed!.id).toBe(job!.id);
      const lines = await linesOf(() => executeClaimedJob(testDb(), claimed!, defaultJobContext()));
      expect(lines).toEqual([
        expect.objectContaining({
          message: "inside the job",
          jobId: job!.id,
          kind: "setup_subscription",
          businessId: biz.business.id,
        }),
      ]);
    } finally {
      restore();
    }
  });
});
