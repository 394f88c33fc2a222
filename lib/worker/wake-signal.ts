/**
 * What the worker loop waits on between claims: a wake-up (new work announced, or a slot freed)
 * or its poll interval.
 */
export type WakeSignal = {
  /** New work may be due (a commit announced jobs): every lane looks. */
  wake(): void;
  /** A slot was freed: only lanes with a backlog claim again. */
  wakeForSlot(): void;
  /** New work may be due, without waking the loop (it is awake). */
  markFresh(): void;
  /** Whether new work may be due since the last call; clears it. */
  takeFresh(): boolean;
  /** Waits for a wake-up or `ms`; answers whether the time ran out. */
  idle(ms: number): Promise<boolean>;
};

export function createWakeSignal(): WakeSignal {
  let wakeUp: (() => void) | null = null;
  let woken = false;
  let fresh = true;
  const wakeForSlot = () => {
    woken = true;
    wakeUp?.();
  };
  return {
    wake() {
      fresh = true;
      wakeForSlot();
    },
    wakeForSlot,
    markFresh() {
      fresh = true;
    },
    takeFresh() {
      const was = fresh;
      fresh = false;
      return was;
    },
    idle: (ms) =>
      new Promise<boolean>((resolve) => {
        if (woken) {
          woken = false;
          return resolve(false);
        }
        const timer = setTimeout(() => done(true), ms);
        function done(timedOut = false) {
          clearTimeout(timer);
          wakeUp = null;
          woken = false;
          resolve(timedOut);
        }
        wakeUp = () => done();
      }),
  };
}
