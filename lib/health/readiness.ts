// The server sets this (server/main.ts): true once it listens, false from the first moment of a
// shutdown. A readiness check reads it; kept on globalThis because Next's bundles carry their own
// copies of lib/ modules, and all must see the one flag.
const globalKey = Symbol.for("kassa.readiness");
const holder = globalThis as unknown as { [globalKey]?: boolean };

/** Whether this process takes new work: listening, and not shutting down. */
export function isReady(): boolean {
  return holder[globalKey] === true;
}

export function setReady(ready: boolean): void {
  holder[globalKey] = ready;
}
