import { describe, expect, it } from "vitest";
import { badSearchPage, unusableSearch } from "./staff-page-input";

describe("unusableSearch: staff pages' search parameters no page can use", () => {
  it("names the parameter holding a NUL or an unpaired surrogate, on staff pages only", () => {
    expect(unusableSearch("/dashboard/payments", new URLSearchParams("q=%00"))).toBe("q");
    expect(unusableSearch("/admin/payments", new URLSearchParams("status=x&q=a%00b"))).toBe("q");
    expect(unusableSearch("/dashboard", new URLSearchParams([["a\u0000", "1"]]))).toBe("a\u0000");
    expect(unusableSearch("/dashboard/payments", new URLSearchParams("q=caf%C3%A9&status=succeeded"))).toBeNull();
    expect(unusableSearch("/checkout/cs_1", new URLSearchParams("q=%00"))).toBeNull();
    expect(unusableSearch("/dashboards", new URLSearchParams("q=%00"))).toBeNull();
  });

  it("answers a page that says what was wrong and leads back, escaping what it shows", () => {
    const html = badSearchPage("/admin/payments", "q", "n0nce");
    expect(html).toContain("Search not understood");
    expect(html).toContain('href="/admin/payments"');
    expect(html).toContain('<style nonce="n0nce">');
    expect(badSearchPage("/dashboard", "<b>\u0000", "n")).not.toContain("<b>");
    expect(badSearchPage("/dashboard", "<b>", "n")).toContain("&lt;b&gt;");
  });
});
