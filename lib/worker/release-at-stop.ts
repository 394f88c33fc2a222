import { releaseJobs } from "@/lib/jobs/claim-jobs";
import { log } from "@/lib/log";
import type { WorkerCore } from "./claim-loop";

/**
 * Waits for the running jobs, up to `graceMs`, and releases those still running after it, so
 * another worker takes them at once.
 */
export async function finishOrRelease(core: WorkerCore, graceMs: number): Promise<void> {
  const pending = [...core.active.values()];
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all(pending.map((a) => a.done)),
    new Promise((resolve) => (timer = setTimeout(resolve, graceMs))),
  ]);
  clearTimeout(timer);
  const leftover = [...core.active.values()].map((a) => a.job);
  if (leftover.length) {
    log.warn("releasing jobs still running at stop", { workerId: core.id, jobs: leftover.map((j) => j.id) });
    await releaseJobs(core.db, leftover);
  }
}
