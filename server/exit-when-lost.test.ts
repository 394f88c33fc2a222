import { describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { exitWhenLost } from "./embedded";

// The server stops once its embedded database's thread has ended (decision 0059).
describe("exitWhenLost", () => {
  const handle = (lost?: Promise<Error>) => ({ lost }) as DatabaseHandle;

  it("exits with status 1 once the database is lost", async () => {
    const exit = vi.fn();
    let lose!: (error: Error) => void;
    exitWhenLost(handle(new Promise((resolve) => (lose = resolve))), exit);
    await Promise.resolve();
    expect(exit).not.toHaveBeenCalled();
    lose(new Error("the embedded database's thread exited (code 1)"));
    await vi.waitFor(() => expect(exit).toHaveBeenCalledWith(1));
  });

  it("does nothing for a database without a thread", async () => {
    const exit = vi.fn();
    exitWhenLost(handle(), exit);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(exit).not.toHaveBeenCalled();
  });
});
