import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { catalogue } from "./catalogue";

// The checkout draws these icons in its first frame. An SVG image with text looks up its font in
// a document of its own: the first one cost about 30 ms of that frame's paint on the bench machine
// (decision 0033, eighth pass). So the icons carry their lettering as outlines, and no text.
const root = path.resolve(import.meta.dirname, "..", "..");

describe("payment method icons", () => {
  it.each(catalogue.map((m) => [m.id, m.image] as const))("%s: %s is a local SVG without text", (_id, image) => {
    const file = path.join(root, "public", image);
    const svg = fs.readFileSync(file, "utf8");
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 48 32" role="img" aria-label="[^"]+">/);
    expect(svg).not.toMatch(/<text|font-family|font-size|<style|@font-face/);
  });
});
