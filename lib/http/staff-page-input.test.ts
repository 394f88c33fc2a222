import { describe, expect, it } from "vitest";
import { badSearchPage, unknownStaffPathPage, unusableSearch, unusableStaffPath } from "./staff-page-input";

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

describe("unusableStaffPath: staff pages' paths no page can find", () => {
  it("flags a NUL, an unpaired surrogate or broken percent-encoding in a staff path only", () => {
    expect(unusableStaffPath("/dashboard/payments/%00")).toBe(true);
    expect(unusableStaffPath("/admin/payments/cs_1%00x")).toBe(true);
    expect(unusableStaffPath("/dashboard/payments/%ED%A0%80")).toBe(true);
    expect(unusableStaffPath("/dashboard/payments/%E0%A4%A")).toBe(true);
    expect(unusableStaffPath("/dashboard/payments/cs_01ABC")).toBe(false);
    expect(unusableStaffPath("/dashboard/payments/caf%C3%A9")).toBe(false);
    expect(unusableStaffPath("/checkout/%00")).toBe(false);
  });

  it("answers a 404 page that leads back to the dashboard", () => {
    const html = unknownStaffPathPage("n0nce");
    expect(html).toContain("Page not found");
    expect(html).toContain('href="/dashboard"');
    expect(html).toContain('<style nonce="n0nce">');
  });
});
