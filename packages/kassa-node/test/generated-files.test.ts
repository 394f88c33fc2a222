import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generatedFiles, packageDir } from "../scripts/generated-files";

describe("the generated client files", () => {
  it("match a fresh generation from Kassa's OpenAPI document (run `npm run generate -w @kassa/node`)", async () => {
    for (const file of await generatedFiles()) {
      const committed = await readFile(file.path, "utf8").catch(() => "(missing)");
      expect(
        committed,
        `${path.relative(packageDir, file.path)} is stale: npm run generate -w @kassa/node`,
      ).toBe(file.contents);
    }
  }, 180_000); // a bound on hangs: generating and formatting 6,000 lines takes seconds, more on a busy machine
});
