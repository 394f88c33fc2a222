/** A method's fee schedule: fixed cents plus parts per million of the amount. */
export type FeeSchedule = { staticCents: number; ppm: number };

/** The fee on an amount in cents: static + amount × percent, rounded half up to a cent. */
export function feeOn(amount: number, fees: FeeSchedule): number {
  return fees.staticCents + Math.floor((amount * fees.ppm + 500_000) / 1_000_000);
}

export type Charge = { gross: number; fees: number; net: number };

/**
 * What the customer pays and the business receives for a session amount. Normally the customer
 * pays the amount and the fees come out of it. When the business passes fees to the customer,
 * the amount is grossed up to the smallest total whose net is at least the session amount, so the
 * business receives what it asked for and `fees` is the fee on what was actually charged.
 */
export function chargeFor(amount: number, fees: FeeSchedule, passToCustomer: boolean): Charge {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError(`amount must be whole cents, got ${amount}`);
  if (!passToCustomer) {
    const fee = Math.min(feeOn(amount, fees), amount);
    return { gross: amount, fees: fee, net: amount - fee };
  }
  // Closed-form estimate, then step to the exact smallest gross (rounding can shift it by a cent).
  let gross = Math.ceil((amount + fees.staticCents) / (1 - fees.ppm / 1_000_000));
  while (gross - 1 - feeOn(gross - 1, fees) >= amount) gross -= 1;
  while (gross - feeOn(gross, fees) < amount) gross += 1;
  const fee = feeOn(gross, fees);
  return { gross, fees: fee, net: gross - fee };
}
