import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import vm from "node:vm";
import { afterAll, describe, expect, it } from "vitest";
import { addCompileHints, compileHint } from "./compile-hints";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A `.next` directory with a build manifest naming two framework chunks, and one page chunk. */
function fakeBuild() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-compile-hints-"));
  dirs.push(dir);
  fs.mkdirSync(path.join(dir, "static", "chunks"), { recursive: true });
  const chunks = {
    "static/chunks/runtime.js": "globalThis.loaded = (globalThis.loaded ?? []).concat('runtime');",
    "static/chunks/react-dom.js": "(function () { globalThis.loaded = (globalThis.loaded ?? []).concat('react-dom'); })();",
    "static/chunks/page.js": "globalThis.loaded = ['page'];",
    "static/chunks/app.css": "body { color: red }",
  };
  for (const [file, text] of Object.entries(chunks)) fs.writeFileSync(path.join(dir, file), text);
  const rootMainFiles = ["static/chunks/runtime.js", "static/chunks/react-dom.js", "static/chunks/app.css"];
  fs.writeFileSync(path.join(dir, "build-manifest.json"), JSON.stringify({ pages: {}, rootMainFiles }));
  return { dir, chunks, read: (file: string) => fs.readFileSync(path.join(dir, file), "utf8") };
}

describe("addCompileHints", () => {
  it("puts the hint on the first line of each framework chunk, nothing else changed", () => {
    const build = fakeBuild();
    expect(addCompileHints(build.dir)).toEqual(["static/chunks/runtime.js", "static/chunks/react-dom.js"]);
    for (const file of ["static/chunks/runtime.js", "static/chunks/react-dom.js"] as const)
      expect(build.read(file)).toBe(`${compileHint}\n${build.chunks[file]}`);
    // Not a framework chunk, or not a script: as built.
    expect(build.read("static/chunks/page.js")).toBe(build.chunks["static/chunks/page.js"]);
    expect(build.read("static/chunks/app.css")).toBe(build.chunks["static/chunks/app.css"]);
    expect(fs.readdirSync(path.join(build.dir, "static", "chunks")).sort()).toEqual(["app.css", "page.js", "react-dom.js", "runtime.js"]);
  });

  it("leaves a chunk that has it alone (a second run changes nothing)", () => {
    const build = fakeBuild();
    addCompileHints(build.dir);
    const once = build.read("static/chunks/runtime.js");
    expect(addCompileHints(build.dir)).toEqual([]);
    expect(build.read("static/chunks/runtime.js")).toBe(once);
  });

  it("keeps the chunks running as they did (the hint is a comment)", () => {
    const build = fakeBuild();
    addCompileHints(build.dir);
    const context: { loaded?: string[] } = {};
    vm.createContext(context);
    vm.runInContext(build.read("static/chunks/runtime.js"), context);
    vm.runInContext(build.read("static/chunks/react-dom.js"), context);
    expect(context.loaded).toEqual(["runtime", "react-dom"]);
  });
});
