import { z } from "zod";

/** The provider callbacks Kassa answers: lib/api parses and answers them, the OpenAPI document shows them. */

/** What Kassa answers a provider for an event it took (the provider only looks at the 200). */
export const ProviderEventReceivedSchema = z
  .strictObject({
    received: z.literal(true),
    status: z.enum(["accepted", "duplicate", "ignored"]).meta({
      description:
        "`accepted`: stored and processed in the background; `duplicate`: already received; `ignored`: not about anything Kassa created.",
    }),
  })
  .meta({ id: "ProviderEventReceived" });

/** The form of the 3-D Secure challenge page. */
export const sandboxChallengeFormSchema = z.object({ outcome: z.enum(["succeed", "fail"]) });
