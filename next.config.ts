import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite and postgres.js are loaded at run time from node_modules, never bundled.
  serverExternalPackages: ["@electric-sql/pglite", "@electric-sql/pglite-socket", "postgres", "drizzle-orm", "rate-limiter-flexible", "geoip-country"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
