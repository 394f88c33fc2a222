import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { builtEntry, bundledEntry } from "./bundle.mjs";

// A bundle is never run older than its sources (bin/bundle.mjs). The fixture lives in the bundles'
// cache folder, outside the sources, so no other test or build ever sees it.
const root = path.resolve(import.meta.dirname, "..");
const fixture = path.join(root, "node_modules", ".cache", "kassa", `bundle-test-${process.pid}`);
const entry = path.relative(root, path.join(fixture, "entry.ts"));
afterAll(() => {
  fs.rmSync(fixture, { recursive: true, force: true });
  // The fixture's bundles and manifests (named after its path).
  const bundles = path.join(root, "node_modules", ".cache", "kassa", "bundles");
  for (const name of fs.readdirSync(bundles).filter((name) => name.includes(`bundle-test-${process.pid}_`)))
    fs.rmSync(path.join(bundles, name), { recursive: true, force: true });
});

// (No database here: CI's PostgreSQL pass, which lists the files that spawn( or execFile( their own
// processes, has no reason to run this file again.)
const run = (url: string) => spawnSync(process.execPath, [fileURLToPath(url)], { encoding: "utf8" }).stdout.trim();

describe("bin/bundle.mjs", () => {
  it("rebuilds a bundle whose source changed, and runs lazily imported modules from it", async () => {
    fs.mkdirSync(fixture, { recursive: true });
    fs.writeFileSync(path.join(fixture, "entry.ts"), 'const { word } = await import("./word");\nconsole.log(word satisfies string);\n');
    fs.writeFileSync(path.join(fixture, "word.ts"), 'export const word: string = "first";\n');
    const first = await bundledEntry(entry);
    expect(first).not.toBeNull();
    expect(run(first!)).toBe("first");
    expect(builtEntry(entry)).toBe(first);

    fs.writeFileSync(path.join(fixture, "word.ts"), 'export const word: string = "second";\n');
    expect(builtEntry(entry)).toBeNull();
    const second = await bundledEntry(entry);
    expect(second).not.toBe(first);
    expect(run(second!)).toBe("second");
  });

  it("gives null, for tsx to run the sources, when the sources do not build", async () => {
    fs.mkdirSync(fixture, { recursive: true });
    fs.writeFileSync(path.join(fixture, "broken.ts"), "export const = ;\n");
    expect(await bundledEntry(path.relative(root, path.join(fixture, "broken.ts")))).toBeNull();
  });
});
