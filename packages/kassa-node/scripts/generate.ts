/**
 * Regenerates openapi.json and src/schema.d.ts from Kassa's OpenAPI document:
 * `npm run generate -w @kassa/node` (or `npx tsx packages/kassa-node/scripts/generate.ts`).
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { generatedFiles, packageDir } from "./generated-files";

for (const file of await generatedFiles()) {
  await writeFile(file.path, file.contents);
  console.log(`wrote ${path.relative(packageDir, file.path)}`);
}
