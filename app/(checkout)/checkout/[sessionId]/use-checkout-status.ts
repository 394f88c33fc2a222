"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { pollInterval } from "@/lib/checkout/checkout-state";
import type { CheckoutStatus } from "@/lib/checkout/get-checkout";
import { fetchCheckoutStatus } from "@/lib/checkout/pay-client";

/** A read younger than this is not repeated when the window regains focus. */
const freshMs = 5_000;
/** Failed reads are retried twice, after 1 s and 2 s. */
const retryDelays = [1_000, 2_000];

/**
 * The session's state as the page shows it: the server's at first, then polled while a payment is
 * in progress (every 2 s, every 15 s while held for review; never in a hidden tab), re-read when
 * the customer comes back to the window, and replaced by what a payment attempt answers.
 * A few lines instead of a query library: the first-load bundle is a budget (decision 0033).
 */
export function useCheckoutStatus(sessionId: string, initial: CheckoutStatus) {
  const [status, setStatusState] = useState(initial);
  const readAt = useRef(0);
  const setStatus = useCallback((next: CheckoutStatus) => {
    readAt.current = Date.now();
    setStatusState(next);
  }, []);

  /** Reads the state now (with retries) and shows it; rejects when every attempt failed. */
  const refetch = useCallback(async () => {
    for (let attempt = 0; ; attempt++) {
      try {
        const fresh = await fetchCheckoutStatus(sessionId);
        setStatus(fresh);
        return fresh;
      } catch (error) {
        const delay = retryDelays[attempt];
        if (delay === undefined) throw error;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }, [sessionId, setStatus]);

  const interval = pollInterval(status.state);
  useEffect(() => {
    if (!interval) return;
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") refetch().catch(() => {});
    }, interval);
    return () => clearInterval(timer);
  }, [interval, refetch]);

  useEffect(() => {
    readAt.current = Date.now();
    const onFocus = () => {
      if (document.visibilityState === "visible" && Date.now() - readAt.current > freshMs) refetch().catch(() => {});
    };
    window.addEventListener("focus", onFocus);
    document.addEventListener("visibilitychange", onFocus);
    return () => {
      window.removeEventListener("focus", onFocus);
      document.removeEventListener("visibilitychange", onFocus);
    };
  }, [refetch]);

  return { status, setStatus, refetch };
}
