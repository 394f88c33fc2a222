import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: [".next/**", "node_modules/**", ".data/**", "db/migrations/**", "next-env.d.ts", "test-results/**", "playwright-report/**"] },
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
    // The Stripe emulator is a package of its own: it may not reach into Kassa.
    files: ["packages/stripe-emulator/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: ["@/*", "../../*"], message: "The emulator package stands alone: no imports from Kassa." }] }],
    },
  },
);
