import { createRequire } from "node:module";

type GeoipCountry = { lookup(ip: string): { country: string } | null };

// geoip-country ships MaxMind's GeoLite2 country data inside the package: no network, looked up
// in memory. Loaded lazily (about 8 MB) on the first lookup.
let geoip: GeoipCountry | undefined;

/** Two-letter country of an IP address, or null (private, loopback, unknown). */
export function countryOfIp(ip: string | null | undefined): string | null {
  if (!ip) return null;
  geoip ??= createRequire(import.meta.url)("geoip-country") as GeoipCountry;
  return geoip.lookup(ip)?.country ?? null;
}
