import { describe, expect, it } from "vitest";
import { countryOfIp } from "./country-of-ip";

describe("countryOfIp", () => {
  it("finds the country of public IPv4 and IPv6 addresses offline", () => {
    expect(countryOfIp("8.8.8.8")).toBe("US");
    expect(countryOfIp("177.71.128.1")).toBe("BR");
    expect(countryOfIp("2a03:2880:f10c:83:face:b00c:0:25de")).toMatch(/^[A-Z]{2}$/);
  });

  it("answers null for private, loopback, missing and malformed addresses", () => {
    for (const ip of ["127.0.0.1", "10.1.2.3", "192.168.0.1", "::1", "", null, undefined, "not an ip"])
      expect(countryOfIp(ip)).toBeNull();
  });
});
