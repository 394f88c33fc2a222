import { describe, expect, it } from "vitest";
import { contentSecurityPolicy } from "./content-security-policy";

const directives = (policy: string) =>
  Object.fromEntries(policy.split("; ").map((d) => [d.split(" ")[0], d.split(" ").slice(1)]));

describe("contentSecurityPolicy", () => {
  it("runs only nonced scripts, and never inline or eval'd code in production", () => {
    const csp = directives(contentSecurityPolicy({ nonce: "abc123==", allowStripe: false }));
    expect(csp["script-src"]).toEqual(["'self'", "'nonce-abc123=='", "'strict-dynamic'"]);
    expect(csp["style-src"]).toEqual(["'self'", "'nonce-abc123=='"]);
    expect(csp["frame-ancestors"]).toEqual(["'none'"]);
    expect(csp["object-src"]).toEqual(["'none'"]);
    expect(csp["base-uri"]).toEqual(["'none'"]);
    expect(csp["frame-src"]).toEqual(["'none'"]);
    expect(csp["connect-src"]).toEqual(["'self'"]);
    expect(csp["style-src-attr"]).toBeUndefined();
    expect(JSON.stringify(csp)).not.toContain("unsafe");
    expect(JSON.stringify(csp)).not.toContain("stripe");
  });

  it("lets checkout pages reach Stripe's hosts", () => {
    const csp = directives(contentSecurityPolicy({ nonce: "n", allowStripe: true }));
    expect(csp["script-src"]).toContain("https://js.stripe.com");
    expect(csp["frame-src"]).toEqual(["https://js.stripe.com", "https://*.js.stripe.com", "https://hooks.stripe.com"]);
    expect(csp["connect-src"]).toContain("https://api.stripe.com");
    expect(csp["script-src"]).not.toContain("'unsafe-inline'");
  });

  it("allows style attributes, and nothing else inline, on staff pages", () => {
    const csp = directives(contentSecurityPolicy({ nonce: "n", allowStripe: false, allowStyleAttributes: true }));
    expect(csp["style-src-attr"]).toEqual(["'unsafe-inline'"]);
    expect(csp["style-src"]).toEqual(["'self'", "'nonce-n'"]);
    expect(csp["script-src"]).toEqual(["'self'", "'nonce-n'", "'strict-dynamic'"]);
    expect(csp["frame-src"]).toEqual(["'none'"]);
  });

  it("allows inline styles, but no inline script, on the API reference", () => {
    const csp = directives(contentSecurityPolicy({ nonce: "n", allowStripe: false, allowInlineStyles: true }));
    // Without the nonce: a nonce in style-src would make browsers ignore 'unsafe-inline'.
    expect(csp["style-src"]).toEqual(["'self'", "'unsafe-inline'"]);
    expect(csp["style-src-attr"]).toEqual(["'unsafe-inline'"]);
    expect(csp["script-src"]).toEqual(["'self'", "'nonce-n'", "'strict-dynamic'"]);
    expect(csp["connect-src"]).toEqual(["'self'"]);
    expect(csp["font-src"]).toEqual(["'self'"]);
  });

  it("adds eval only in development, and upgrades requests only over https", () => {
    expect(directives(contentSecurityPolicy({ nonce: "n", allowStripe: false, dev: true }))["script-src"]).toContain("'unsafe-eval'");
    expect(contentSecurityPolicy({ nonce: "n", allowStripe: false })).not.toContain("upgrade-insecure-requests");
    expect(contentSecurityPolicy({ nonce: "n", allowStripe: false, https: true })).toContain("upgrade-insecure-requests");
  });
});
