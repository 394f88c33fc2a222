import type { Db } from "@/db/client";
import type { SandboxProviderPayment } from "@/db/schema";
import { ProviderError } from "@/lib/errors";
import type {
  RedirectPaymentState,
  RedirectProvider,
  RefundOutcome,
  RefundRequest,
  StartRedirectRequest,
} from "../types";
import {
  createSimulatedPayment,
  findSimulatedPaymentByReference,
  getSimulatedPayment,
  refundSimulatedPayment,
  simulatorUrl,
} from "./simulator";

function stateOf(payment: SandboxProviderPayment): RedirectPaymentState {
  return {
    providerPaymentId: payment.id,
    status: payment.status,
    amount: payment.amount,
    amountReceived: payment.amountPaid,
    reference: payment.reference,
  };
}

/**
 * The sandbox redirect provider's adapter (methods `bitcoin`, `pix_br`): what Kassa would do with
 * a real redirect-based provider's API, pointed at the simulator.
 */
export class SandboxRedirectAdapter implements RedirectProvider {
  readonly name = "sandbox";
  readonly flow = "redirect" as const;

  constructor(
    private readonly db: Db,
    private readonly businessId: string,
  ) {}

  async startPayment(request: StartRedirectRequest) {
    const payment = await createSimulatedPayment(this.db, {
      businessId: this.businessId,
      method: request.method,
      amount: request.amount,
      currency: request.currency,
      reference: request.attemptId,
      description: request.description,
      returnUrl: request.returnUrl,
      metadata: request.metadata,
    });
    return { providerPaymentId: payment.id, redirectUrl: simulatorUrl(payment.id) };
  }

  async retrievePayment(providerPaymentId: string): Promise<RedirectPaymentState> {
    const payment = await getSimulatedPayment(this.db, providerPaymentId);
    if (payment.businessId !== this.businessId)
      throw new ProviderError("No such sandbox payment for this business");
    return stateOf(payment);
  }

  async findPaymentOfAttempt(attemptId: string): Promise<RedirectPaymentState | null> {
    const payment = await findSimulatedPaymentByReference(this.db, this.businessId, attemptId);
    return payment ? stateOf(payment) : null;
  }

  async refund(request: RefundRequest): Promise<RefundOutcome> {
    try {
      await refundSimulatedPayment(this.db, request.providerPaymentId, request.amount);
      return { status: "succeeded", providerRefundId: `sbxre_${request.refundId}` };
    } catch (error) {
      if (error instanceof ProviderError)
        return {
          status: "failed",
          providerRefundId: null,
          failure: { code: error.errorType, message: error.message },
        };
      throw error;
    }
  }
}
