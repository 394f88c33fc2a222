"use client";

import { useEffect, useState } from "react";
import { timeLeft } from "@/lib/dashboard/dispute-time";

/**
 * Time left to the evidence due date, ticking each half minute. `now` is the business's time when
 * the page was made (a sandbox clock may run ahead of the wall clock): the countdown keeps that lead.
 */
export function DueCountdown({ due, now }: { due: string; now: string }) {
  const [current, setCurrent] = useState(now);
  useEffect(() => {
    const lead = Date.parse(now) - Date.now();
    const tick = () => setCurrent(new Date(Date.now() + lead).toISOString());
    const timer = setInterval(tick, 30_000);
    return () => clearInterval(timer);
  }, [now]);
  return (
    <span data-testid="due-countdown" className="font-medium">
      {timeLeft(due, current)}
    </span>
  );
}
