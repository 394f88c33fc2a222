import type Stripe from "stripe";
import { advanceClock } from "../clock";
import { invalidRequest } from "../errors";
import { emit } from "../events";
import { newObjectId } from "../ids";
import { paginate } from "../list";
import { requireObject } from "../lookup";
import { listing, retrieving } from "../accepted-params";
import type { Route } from "../router";
import { timeOn } from "../state";

export const testClockRoutes: Route[] = [
  // POST /v1/test_helpers/test_clocks
  {
    method: "POST",
    path: "/v1/test_helpers/test_clocks",
    stripeParams: "TestHelpers.TestClockCreateParams",
    accepts: ["expand", "frozen_time", "name"],
    handler: ({ ctx, params }) => {
      const created = timeOn(ctx, null);
      const clock: Stripe.TestHelpers.TestClock = {
        id: newObjectId("clock"),
        object: "test_helpers.test_clock",
        created,
        deletes_after: created + 30 * 86_400,
        frozen_time: params.int("frozen_time", { required: true, min: 0 }),
        livemode: false,
        name: params.string("name") ?? null,
        status: "ready",
        status_details: {},
      };
      ctx.account.store.insert("test_helpers.test_clock", clock);
      emit(ctx, "test_helpers.test_clock.created", clock, { created: clock.frozen_time });
      return clock;
    },
  },
  // GET /v1/test_helpers/test_clocks/:id
  {
    method: "GET",
    path: "/v1/test_helpers/test_clocks/:id",
    stripeParams: "TestHelpers.TestClockRetrieveParams",
    accepts: retrieving,
    handler: ({ ctx, path }) => requireObject(ctx, "test_helpers.test_clock", path.id),
  },
  // GET /v1/test_helpers/test_clocks
  {
    method: "GET",
    path: "/v1/test_helpers/test_clocks",
    stripeParams: "TestHelpers.TestClockListParams",
    accepts: listing(),
    handler: ({ ctx, params }) =>
      paginate(ctx.account.store.all("test_helpers.test_clock"), params, "/v1/test_helpers/test_clocks"),
  },
  // POST /v1/test_helpers/test_clocks/:id/advance
  {
    method: "POST",
    path: "/v1/test_helpers/test_clocks/:id/advance",
    stripeParams: "TestHelpers.TestClockAdvanceParams",
    accepts: ["expand", "frozen_time"],
    handler: ({ ctx, params, path }) => {
      const clock = requireObject(ctx, "test_helpers.test_clock", path.id);
      if (clock.status !== "ready") {
        throw invalidRequest(
          `The test clock ${clock.id} is ${clock.status}; it can only be advanced when ready.`,
          {
            code: "test_clock_not_ready",
          },
        );
      }
      const target = params.int("frozen_time", { required: true });
      if (target <= clock.frozen_time) {
        throw invalidRequest("The test clock can only be advanced to a time after its current frozen_time.", {
          param: "frozen_time",
        });
      }
      advanceClock(ctx, clock, target);
      return clock;
    },
  },
  // DELETE /v1/test_helpers/test_clocks/:id (its customers go with it, as on Stripe)
  {
    method: "DELETE",
    path: "/v1/test_helpers/test_clocks/:id",
    stripeParams: "TestHelpers.TestClockDeleteParams",
    accepts: [],
    handler: ({ ctx, path }) => {
      const clock = requireObject(ctx, "test_helpers.test_clock", path.id);
      for (const customer of ctx.account.store.all("customer")) {
        if (customer.test_clock === clock.id) ctx.account.deleted.add(customer.id);
      }
      for (const subscription of ctx.account.store.all("subscription")) {
        if (subscription.test_clock === clock.id && subscription.status !== "canceled")
          subscription.status = "canceled";
      }
      ctx.account.store.remove("test_helpers.test_clock", clock.id);
      emit(ctx, "test_helpers.test_clock.deleted", clock, { created: clock.frozen_time });
      return { id: clock.id, object: "test_helpers.test_clock", deleted: true };
    },
  },
];
