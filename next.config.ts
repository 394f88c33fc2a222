import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // The Stripe emulator ships TypeScript source. PGlite and postgres.js are loaded at run time from node_modules, never bundled.
  transpilePackages: ["@kassa/stripe-emulator"],
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "drizzle-orm", "rate-limiter-flexible", "geoip-country"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
