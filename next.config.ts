import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // The Stripe emulator ships TypeScript source. PGlite and postgres.js are loaded at run time from node_modules, never bundled;
  // so is esbuild (a native binary), which builds the browser SDK at its first request (decision 0023).
  transpilePackages: ["@kassa/stripe-emulator"],
  serverExternalPackages: [
    "@electric-sql/pglite",
    "postgres",
    "drizzle-orm",
    "rate-limiter-flexible",
    "geoip-country",
    "esbuild",
  ],
  poweredByHeader: false,
  // The server compresses Next's answers itself (server/page-handler.ts), after rewriting the
  // checkout's HTML; compressing here too would hand it compressed bytes.
  compress: false,
  typedRoutes: false,
  // The server bounds every request body per route before Next reads it (server/body-limit.ts:
  // 1 MB for server actions, a little more for the logo form); Next's own limit, above those, would
  // answer a bare 500.
  // KASSA_BUILD_CACHE=0 (CI): no Turbopack cache written to .next/cache. A developer's next build
  // reads it back; CI's clone builds once and never reads it, and writing it (about 300 MB) cost
  // about a third of the build's CPU (docs/benchmarks.md, "CI steps").
  experimental: {
    serverActions: { bodySizeLimit: "2mb" },
    turbopackFileSystemCacheForBuild: process.env.KASSA_BUILD_CACHE !== "0",
  },
  // CI type-checks the whole tree (`npm run typecheck`) before it builds: KASSA_BUILD_TYPECHECK=0
  // spares the build a second pass over the same files (about 30 s of a 2-core machine).
  typescript: { ignoreBuildErrors: process.env.KASSA_BUILD_TYPECHECK === "0" },
};

export default nextConfig;
