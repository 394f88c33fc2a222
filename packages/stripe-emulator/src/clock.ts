import type Stripe from "stripe";
import { nextDueWork } from "./billing";
import { emit } from "./events";
import { automatic, type Ctx } from "./state";

/**
 * Runs the billing work due in one time domain up to `upTo`, in time order: each piece runs at
 * its own due time (a test clock's frozen_time steps through renewal dates; clockless objects see
 * that time as "now"), so a long advance renews period after period like Stripe does.
 */
export function runDueWork(ctx: Ctx, clockId: string | null, upTo: number): void {
  const clock = clockId ? ctx.account.store.get("test_helpers.test_clock", clockId) : undefined;
  try {
    for (let guard = 0; guard < 100_000; guard++) {
      const next = nextDueWork(ctx, clockId);
      if (!next || next.at > upTo) break;
      if (clock) clock.frozen_time = Math.max(clock.frozen_time, next.at);
      else ctx.account.realTimeOverride = next.at;
      next.run();
    }
  } finally {
    ctx.account.realTimeOverride = null;
  }
  if (clock) clock.frozen_time = upTo;
}

/**
 * Starts advancing a test clock, as Stripe does: the clock reads `advancing` at once, and turns
 * `ready` after the renewals, retries and period ends up to the new time have run and their
 * webhooks have had a first delivery attempt (so pollers that wait for `ready` see the results).
 */
export function advanceClock(ctx: Ctx, clock: Stripe.TestHelpers.TestClock, target: number): void {
  clock.status = "advancing";
  clock.status_details = { advancing: { target_frozen_time: target } };
  emit(ctx, "test_helpers.test_clock.advancing", clock, { created: clock.frozen_time });
  finishAdvance(ctx, clock.id, target);
}

/** Clocks that were `advancing` when the emulator stopped finish their advance after a restart. */
export function resumeAdvances(ctx: Ctx): void {
  for (const clock of ctx.account.store.all("test_helpers.test_clock")) {
    const target = clock.status_details?.advancing?.target_frozen_time;
    if (clock.status === "advancing" && typeof target === "number") finishAdvance(ctx, clock.id, target);
  }
}

/**
 * The advance itself, in the background: its work in one operation on the account, then (once its
 * webhooks had a first attempt) `ready` in another. Each operation finds the clock again and acts
 * only if it is still advancing to this target (the request that started it may have been run
 * again, or another process may have finished it).
 */
function finishAdvance(ctx: Ctx, clockId: string, target: number): void {
  const { emu, account } = ctx;
  const background = { ...ctx, request: automatic };
  const advancing = () => {
    const clock = account.store.get("test_helpers.test_clock", clockId);
    const due = clock?.status_details?.advancing?.target_frozen_time;
    return clock?.status === "advancing" && due === target ? clock : undefined;
  };
  const work = (async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    try {
      const ran = await emu.saver.run(account, "write", () => {
        if (!advancing()) return false;
        runDueWork(background, clockId, target);
        return true;
      });
      if (!ran) return;
      await emu.webhooks.settled();
      // What the advance did is saved before the clock reads `ready`.
      await emu.saver.run(account, "write", () => {
        const clock = advancing();
        if (!clock) return;
        clock.status = "ready";
        clock.status_details = {};
        emit(background, "test_helpers.test_clock.ready", clock, { created: clock.frozen_time });
      });
    } catch (error) {
      await emu.saver
        .run(account, "write", () => {
          const clock = advancing();
          if (!clock) return;
          clock.status = "internal_failure";
          clock.status_details = {};
          account.clockFailures.set(
            clockId,
            error instanceof Error ? (error.stack ?? error.message) : String(error),
          );
          emit(background, "test_helpers.test_clock.internal_failure", clock, { created: clock.frozen_time });
        })
        .catch(() => undefined);
    }
  })();
  emu.background.add(work);
  void work.finally(() => emu.background.delete(work));
}
