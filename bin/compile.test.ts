import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { compile, compiledEntries, compiledEntry } from "./compile.mjs";

// `npm run build`'s last step (bin/compile.mjs): the server, the CLI and the database's thread as
// JavaScript in dist/server, run without tsx, and free of this checkout's absolute paths (the
// folder may move into a container image). It writes the real dist/server, as the build does.
const root = path.resolve(import.meta.dirname, "..");
const outdir = path.join(root, "dist", "server");

describe("bin/compile.mjs", () => {
  it("compiles the entries, which run without tsx and find the project's files relative to themselves", async () => {
    const entries = await compile();
    expect(Object.keys(entries).sort()).toEqual(Object.keys(compiledEntries).sort());
    const cli = compiledEntry("cli");
    expect(cli).toBe(`file://${path.join(outdir, "cli.mjs")}`);
    for (const file of fs.readdirSync(outdir).filter((name) => name.endsWith(".mjs")))
      expect(fs.readFileSync(path.join(outdir, file), "utf8"), file).not.toContain(root);

    // The CLI from the compiled file, in a Node without any loader: its usage.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-compiled-"));
    try {
      const run = spawnSync(process.execPath, [fileURLToPath(cli!), "--help"], {
        cwd: os.tmpdir(),
        env: { ...process.env, DATA_DIR: dataDir, NODE_OPTIONS: "" },
        encoding: "utf8",
        timeout: 120_000,
      });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toContain("npx kassa business create");
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);

  it("gives no compiled entry with KASSA_BUNDLE=0 (the sources then run through tsx)", () => {
    const saved = process.env.KASSA_BUNDLE;
    process.env.KASSA_BUNDLE = "0";
    try {
      expect(compiledEntry("main")).toBeNull();
    } finally {
      if (saved === undefined) delete process.env.KASSA_BUNDLE;
      else process.env.KASSA_BUNDLE = saved;
    }
  });
});
