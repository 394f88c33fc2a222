import { afterEach, describe, expect, it, vi } from "vitest";
import { isReady, setReady } from "./readiness";

afterEach(() => setReady(false));

describe("readiness", () => {
  it("is false until the server says otherwise, and follows it", () => {
    expect(isReady()).toBe(false);
    setReady(true);
    expect(isReady()).toBe(true);
    setReady(false);
    expect(isReady()).toBe(false);
  });

  it("is one flag for every copy of the module (Next's bundles have their own)", async () => {
    vi.resetModules();
    const copy = await import("./readiness");
    expect(copy.isReady).not.toBe(isReady);
    setReady(true);
    expect(copy.isReady()).toBe(true);
    copy.setReady(false);
    expect(isReady()).toBe(false);
  });
});
