import { describe, expect, it } from "vitest";
import { searchWithoutUnusable, unknownStaffPathPage, unusableSearch, unusableStaffPath } from "./staff-page-input";
import { unusableSearchNotice } from "./unusable-search-notice";

describe("unusableSearch: staff pages' search parameters no page can use", () => {
  it("names the parameter holding a NUL or an unpaired surrogate, on staff pages only", () => {
    expect(unusableSearch("/dashboard/payments", new URLSearchParams("q=%00"))).toBe("q");
    expect(unusableSearch("/admin/payments", new URLSearchParams("status=x&q=a%00b"))).toBe("q");
    expect(unusableSearch("/dashboard", new URLSearchParams([["a\u0000", "1"]]))).toBe("a\u0000");
    expect(unusableSearch("/dashboard/payments", new URLSearchParams("q=caf%C3%A9&status=succeeded"))).toBeNull();
    expect(unusableSearch("/checkout/cs_1", new URLSearchParams("q=%00"))).toBeNull();
    expect(unusableSearch("/dashboards", new URLSearchParams("q=%00"))).toBeNull();
  });
});

describe("searchWithoutUnusable: a NUL in a search answered inside the dashboard (issue 41, item 24)", () => {
  it("sends the page back to itself with the usable parameters, naming the others", () => {
    const target = searchWithoutUnusable("/dashboard/payments", new URLSearchParams("status=succeeded&q=a%00b"));
    expect(target).not.toBeNull();
    const url = new URL(target!, "https://kassa.test");
    expect(url.pathname).toBe("/dashboard/payments");
    expect(url.searchParams.get("status")).toBe("succeeded");
    expect(url.searchParams.has("q")).toBe(false);
    expect(url.searchParams.get("unusable")).toBe("q");
    // Where it leads is itself usable: no second redirect.
    expect(searchWithoutUnusable(url.pathname, url.searchParams)).toBeNull();
  });

  it("names a parameter whose name is unusable without repeating it, and ignores a forged notice", () => {
    const target = searchWithoutUnusable("/admin", new URLSearchParams([["a\u0000", "1"], ["unusable", "x\u0000"]]));
    expect(new URL(target!, "https://kassa.test").searchParams.get("unusable")).toBe("a parameter");
    expect(searchWithoutUnusable("/dashboard/payments", new URLSearchParams("q=fine"))).toBeNull();
    expect(searchWithoutUnusable("/checkout/cs_1", new URLSearchParams("q=%00"))).toBeNull();
  });

  it("the page says which filters were ignored, as for any filter it cannot use", () => {
    expect(unusableSearchNotice("q")).toMatch(/^Some filters were ignored: the filter "q" held a NUL character/);
    expect(unusableSearchNotice("q,status")).toContain('the filters "q", "status"');
    expect(unusableSearchNotice(null)).toBeNull();
    expect(unusableSearchNotice("")).toBeNull();
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
