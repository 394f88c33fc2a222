import { describe, expect, it } from "vitest";
import nextConfig from "@/next.config";
import { maxLogoBytes } from "@/lib/branding/logo-image";
import { maxEvidenceFileBytes } from "@/lib/dashboard/dispute-actions";
import { bodyLimitFor, serverActionBodyBytes } from "./body-limit";

const bytes = (size: string) => {
  const [, amount, unit] = /^(\d+(?:\.\d+)?)\s*(b|kb|mb)$/i.exec(size)!;
  return Number(amount) * { b: 1, kb: 1024, mb: 1024 * 1024 }[unit!.toLowerCase() as "b" | "kb" | "mb"];
};

describe("body limits by route", () => {
  it("cut every page's form before Next's own server-action limit would (its answer is a bare 500)", () => {
    const nextLimit = bytes(String(nextConfig.experimental?.serverActions?.bodySizeLimit));
    for (const path of ["/dashboard/settings", "/dashboard/disputes/dsp_abc", "/dashboard/payments", "/dashboard/sign-in", "/checkout/x"])
      expect(bodyLimitFor(path), path).toBeLessThan(nextLimit);
    expect(serverActionBodyBytes).toBeLessThan(nextLimit);
  });

  it("let a logo over its own limit reach the settings action, which says what it accepts", () => {
    expect(bodyLimitFor("/dashboard/settings")).toBeGreaterThan(4 * maxLogoBytes);
  });

  it("let an evidence file over its own limit reach the dispute page's action, which says what it accepts", () => {
    expect(bodyLimitFor("/dashboard/disputes/dsp_abc")).toBeGreaterThan(maxEvidenceFileBytes + 64 * 1024);
    expect(bodyLimitFor("/dashboard/disputes")).toBe(serverActionBodyBytes);
  });
});
