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
  finishAdvance(ctx, clock, target);
}

/** Clocks that were `advancing` when the emulator stopped finish their advance after a restart. */
export function resumeAdvances(ctx: Ctx): void {
  for (const clock of ctx.account.store.all("test_helpers.test_clock")) {
    const target = clock.status_details?.advancing?.target_frozen_time;
    if (clock.status === "advancing" && typeof target === "number") finishAdvance(ctx, clock, target);
  }
}

function finishAdvance(ctx: Ctx, clock: Stripe.TestHelpers.TestClock, target: number): void {
  const background = { ...ctx, request: automatic };
  const work = (async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    try {
      runDueWork(background, clock.id, target);
      await ctx.emu.webhooks.settled();
      // What the advance did is saved before the clock reads `ready`.
      ctx.emu.saver.touch(ctx.account);
      await ctx.emu.saver.save();
      clock.status = "ready";
      clock.status_details = {};
      emit(background, "test_helpers.test_clock.ready", clock, { created: clock.frozen_time });
    } catch (error) {
      clock.status = "internal_failure";
      clock.status_details = {};
      ctx.account.clockFailures.set(
        clock.id,
        error instanceof Error ? (error.stack ?? error.message) : String(error),
      );
      emit(background, "test_helpers.test_clock.internal_failure", clock, { created: clock.frozen_time });
    }
    ctx.account.store.touched.add(clock.id);
    ctx.emu.saver.touch(ctx.account);
    await ctx.emu.saver.save().catch(() => undefined);
  })();
  ctx.emu.background.add(work);
  void work.finally(() => ctx.emu.background.delete(work));
}
