import { ConflictError, NotFoundError } from "@/lib/errors";
import { apiHandler } from "@/lib/api/handler";
import {
  findSimulatedPayment,
  simulatePayerAction,
  type SandboxPayerAction,
} from "@/lib/providers/sandbox/simulator";
import { simulatorPage } from "@/lib/providers/sandbox/simulator-page";
import { challengePage } from "@/lib/providers/sandbox/challenge-page";
import { sandboxChallengeFormSchema } from "@/lib/payments/provider-callback-schemas";
import { answerSandboxChallenge, findSandboxChallenge } from "@/lib/payments/sandbox-challenge";
import { sandboxPayerFormSchema } from "@/lib/providers/sandbox/payer-form-schema";

// The sandbox redirect provider's own pages (they stand for an external provider's site).

/** A posted form's fields; a repeated field counts by its first value. */
async function formFields(request: Request): Promise<Record<string, string>> {
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(await request.text())) fields[name] ??= value;
  return fields;
}

function html(status: number, body: string): Response {
  return new Response(body, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
      "x-frame-options": "DENY",
    },
  });
}

// GET /sandbox-provider/pay/{payment_id}
export const getSandboxProviderPage = apiHandler({
  auth: "none",
  handle: async ({ params, db }) => {
    const payment = await findSimulatedPayment(db, params.payment_id ?? "");
    if (!payment) throw new NotFoundError("sandbox_payment_not_found", "No such sandbox provider payment");
    return html(200, simulatorPage(payment));
  },
});

// POST /sandbox-provider/pay/{payment_id} (form: action=pay|underpay|fail): then back to the checkout
export const postSandboxProviderPage = apiHandler({
  auth: "none",
  handle: async ({ request, params, db }) => {
    const id = params.payment_id ?? "";
    const payment = await findSimulatedPayment(db, id);
    if (!payment) throw new NotFoundError("sandbox_payment_not_found", "No such sandbox provider payment");
    const form = sandboxPayerFormSchema.safeParse(await formFields(request));
    if (!form.success) return html(400, simulatorPage(payment, "Choose Pay, Underpay or Fail."));
    const action: SandboxPayerAction = { kind: form.data.action };
    try {
      const updated = await simulatePayerAction(db, id, action);
      return new Response(null, { status: 303, headers: { location: updated.returnUrl } });
    } catch (error) {
      if (error instanceof ConflictError) return html(409, simulatorPage(payment, error.message));
      throw error;
    }
  },
});

// GET /sandbox-provider/3ds/{attempt_id}: the challenge of a sandbox card payment
export const getSandboxChallengePage = apiHandler({
  auth: "none",
  handle: async ({ params, db }) => {
    const challenge = await findSandboxChallenge(db, params.attempt_id ?? "");
    if (!challenge) throw new NotFoundError("challenge_not_found", "No such 3-D Secure challenge");
    return html(200, challengePage(challenge));
  },
});

// POST /sandbox-provider/3ds/{attempt_id} (form: outcome=succeed|fail): then back to the checkout
export const postSandboxChallengePage = apiHandler({
  auth: "none",
  handle: async ({ request, params, db }) => {
    const challenge = await findSandboxChallenge(db, params.attempt_id ?? "");
    if (!challenge) throw new NotFoundError("challenge_not_found", "No such 3-D Secure challenge");
    const form = sandboxChallengeFormSchema.safeParse(await formFields(request));
    if (!form.success) return html(400, challengePage({ ...challenge, notice: "Choose Complete or Fail." }));
    await answerSandboxChallenge(db, challenge, form.data.outcome);
    return new Response(null, { status: 303, headers: { location: challenge.returnUrl } });
  },
});
