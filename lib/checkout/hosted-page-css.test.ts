import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { hostedPageCss, minifyCss } from "./hosted-page-css";
import { hostedPageCssKey, hostedPageCssText } from "./hosted-page-css-text";

const withoutComments = (css: string) => css.replace(/\/\*[\s\S]*?\*\//g, "");
const withoutSpaces = (css: string) => css.replace(/\s+/g, "");

describe("minifyCss", () => {
  it("drops comments and collapses whitespace, keeping every rule", () => {
    const css = "/* a note */\n.a  .b {\n  color: red;  /* why */\n  margin: 0 auto;\n}\n\n.c::before { content: \"\"; }\n";
    expect(minifyCss(css)).toBe('.a .b{color: red;margin: 0 auto;}.c::before{content: "";}');
  });
});

describe("hostedPageCss", () => {
  it("is app/globals.css with nothing but comments and insignificant spaces taken out", () => {
    const source = fs.readFileSync(path.join(process.cwd(), "app", "globals.css"), "utf8");
    const inlined = hostedPageCss();
    expect(inlined).not.toContain("/*");
    expect(inlined).toContain(".hint{");
    expect(inlined.length).toBeLessThan(source.length);
    expect(withoutSpaces(inlined)).toBe(withoutSpaces(withoutComments(source)));
  });
});

describe("hostedPageCssText", () => {
  it("gives the server-side render the text hostedPageCss() registered, and refuses to render without it", () => {
    delete (globalThis as Record<symbol, unknown>)[hostedPageCssKey];
    expect(() => hostedPageCssText()).toThrow(/not registered/);
    const css = hostedPageCss();
    expect(hostedPageCssText()).toBe(css);
  });
});
