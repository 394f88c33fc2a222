import { defineConfig, type Options } from "tsup";

// What the package ships (`npm run build`, and before `npm pack`): JavaScript for plain `node`, as
// ES modules (dist/index.js) and CommonJS (dist/index.cjs), each with its bundled type declarations
// (.d.ts, .d.cts); the generated schema types are bundled in them.
const shared: Options = {
  entry: ["src/index.ts"],
  platform: "node",
  target: "node20",
  dts: true,
  outDir: "dist",
  tsconfig: "tsconfig.build.json",
};

export default defineConfig([
  // openapi-fetch stays a dependency the integrator's node resolves.
  { ...shared, format: ["esm"] },
  // The CommonJS build carries openapi-fetch inside: requiring its CommonJS entry from this
  // ES-module package would hand over its exports object where its default export was meant.
  { ...shared, format: ["cjs"], noExternal: ["openapi-fetch"] },
]);
