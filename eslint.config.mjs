import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: [".next/**", "node_modules/**", ".data/**", "db/migrations/**", "next-env.d.ts", "test-results/**", "playwright-report/**", "packages/*/dist/**", "dist/**"] },
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-console": "off",
    },
  },
  {
    // No import circles (dynamic imports count too; type-only imports do not, `npm run
    // check:cycles` catches those). Decision 0036. CI turns this rule off and runs check:cycles,
    // which covers every TypeScript file, type-only imports included, at a tenth of its CPU (0041).
    files: ["**/*.{ts,tsx,mts,cts}"],
    // Packages are never parsed for it: their graph cannot close a circle through Kassa's files.
    settings: { "import/ignore": ["node_modules"] },
    rules: { "import/no-cycle": ["error", { ignoreExternal: true }] },
  },
  {
    // Small enough to read whole (issues 21 and 44): no source file over 350 lines, no function
    // over 80 (blank lines and comments aside), pages and their React components included. Tests
    // and generated files are not held to it.
    files: ["lib/**/*.{ts,tsx}", "packages/*/src/**/*.ts", "server/**/*.ts", "app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}"],
    ignores: ["**/*.test.{ts,tsx}", "**/*.d.ts"],
    rules: {
      "max-lines": ["error", { max: 350 }],
      "max-lines-per-function": ["error", { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  {
    // The layers (docs/architecture.md, decision 0036). Tests and lib/**/testing/ are composition
    // roots: they may reach any layer.
    files: ["lib/**/*.{ts,tsx}"],
    ignores: ["**/*.test.{ts,tsx}", "lib/**/testing/**"],
    rules: {
      "import/no-restricted-paths": [
        "error",
        {
          zones: [
            {
              target: ["./lib/*.{ts,tsx}", "./lib/!(api|openapi|dashboard|admin)/**/*"],
              from: ["./lib/api", "./lib/openapi", "./lib/dashboard", "./lib/admin"],
              message: "Only delivery layers (app/, server/, lib/api, lib/openapi, lib/dashboard, lib/admin) import lib/api, lib/openapi, lib/dashboard or lib/admin.",
            },
            {
              target: "./lib/providers/**/*",
              from: "./lib/!(providers|http|jobs|metrics|i18n)/**/*",
              message: "A provider adapter knows no domain: it takes what it needs as arguments, and the domain calls it (a registered callback if it must call back).",
            },
          ],
        },
      ],
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["next", "next/*", "next-auth", "next-auth/*"],
              message: "No Next imports in lib/ but the sign-in glue (lib/staff/next-auth.ts, lib/staff/current-staff.ts): pages and actions in app/ call lib.",
            },
          ],
        },
      ],
    },
  },
  {
    // The sign-in glue: Auth.js and the request's cookies.
    files: ["lib/staff/next-auth.ts", "lib/staff/current-staff.ts"],
    rules: { "no-restricted-imports": "off" },
  },
  {
    // The job table knows no domain: the domains import lib/jobs to enqueue work, and the
    // composition roots register the handlers (lib/job-handlers.ts), so no import circle runs
    // through the outbox (decision 0004).
    files: ["lib/jobs/**/*.ts"],
    ignores: ["lib/jobs/**/*.test.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/lib/**", "!@/lib/jobs/**", "!@/lib/job-context", "!@/lib/env", "!@/lib/log", "!@/lib/tracing", "!@/lib/ids", "!@/lib/time", "!@/lib/clock", "!@/lib/errors"],
              message: "lib/jobs may not import a domain: register its handler in lib/job-handlers.ts instead.",
            },
            { group: ["../*", "@/app/**", "@/server/**", "@/inngest/functions/**"], message: "lib/jobs may not import a domain or a composition root." },
            { group: ["@/lib/job-context"], allowTypeImports: true, message: "lib/jobs may import the job context's type only." },
          ],
        },
      ],
    },
  },
  {
    // The shared layer knows no domain (issue 44; docs/architecture.md, "Layers"): http, rate
    // limits, idempotency, metrics, i18n and the kernel files at lib/'s root import only each other;
    // a domain registers with them (its metrics, its jobs, its routes) instead. lib/jobs has its own
    // fence above. The composition roots at lib/'s root (job-handlers, prepare-database, job-context)
    // and lib/db.ts (it opens the database and prepares it: migrations, then the payments catalogue)
    // are not shared: they assemble the domains.
    files: [
      "lib/{http,rate-limit,idempotency,metrics,i18n}/**/*.{ts,tsx}",
      "lib/{clock,crypto,database-fault,db-errors,db-holder,env,errors,ids,log,money,sql-like,time,tracing}.ts",
    ],
    ignores: ["**/*.test.ts", "**/testing/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: [
                "@/lib/*/**",
                "!@/lib/http/**",
                "!@/lib/rate-limit/**",
                "!@/lib/idempotency/**",
                "!@/lib/metrics/**",
                "!@/lib/i18n/**",
                "!@/lib/jobs/**",
              ],
              message: "The shared layer imports no domain: let the domain register with it (docs/architecture.md, \"Layers\").",
            },
            {
              group: ["@/lib/job-handlers", "@/lib/prepare-database", "@/lib/job-context", "@/app/**", "@/server/**", "@/inngest/**"],
              message: "The shared layer imports no composition root.",
            },
            { group: ["../*"], message: "Import across lib/'s folders by their @/lib path, so the fences can read it." },
          ],
        },
      ],
    },
  },
  {
    // The Stripe emulator is a package of its own: it may not reach into Kassa.
    files: ["packages/stripe-emulator/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: ["@/*", "../../*"], message: "The emulator package stands alone: no imports from Kassa." }] }],
    },
  },
  {
    // The Node client ships on its own: its source may not reach into Kassa (its scripts and tests may).
    files: ["packages/kassa-node/src/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: ["@/*", "../../*"], message: "The @kassa/node package stands alone: no imports from Kassa." }] }],
    },
  },
  {
    // One level deeper: test/conformance/ reaches the package's src/ through ../../ and Kassa through ../../../.
    files: ["packages/stripe-emulator/test/conformance/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: ["@/*", "../../../*"], message: "The emulator package stands alone: no imports from Kassa." }] }],
    },
  },
);
