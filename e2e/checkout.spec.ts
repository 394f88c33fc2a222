import { createSession, expect, expectAccessible, test } from "./fixtures";

test("the checkout page shows a new session's merchant, items and total", async ({ page, request, business }) => {
  const id = await createSession(request, business, {
    description: "<b>not bold</b>",
    items: [
      { name: "Notebook", quantity: 2, price: 1200 },
      { name: "<script>alert(1)</script>", quantity: 1, price: 1300 },
    ],
  });

  await page.goto(`/checkout/${id}`);
  await expect(page.getByTestId("merchant")).toContainText("E2E");
  await expect(page.getByTestId("total")).toHaveText("$37.00");
  await expect(page.getByText("Notebook")).toBeVisible();
  await expect(page.getByText("$24.00")).toBeVisible();
  // Item names and descriptions are text, never HTML.
  await expect(page.getByText("<script>alert(1)</script>")).toBeVisible();
  await expect(page.getByText("<b>not bold</b>")).toBeVisible();
  // Sandbox: a visible test-mode banner, test cards, simulated wallets, every method.
  await expect(page.getByTestId("test-mode")).toContainText("Test mode");
  await expect(page.getByRole("button", { name: "Use 4242 4242 4242 4242" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Pay with Apple Pay" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Pay with Google Pay" })).toBeVisible();
  await expect(page.getByRole("radio", { name: "Bitcoin" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Pay $37.00" })).toBeVisible();
  await expectAccessible(page);
});

test("a wallet button's icon stays where it is whether or not its label has been parsed yet", async ({ page, request, business }) => {
  // A frame can be painted while the parser has stopped between a wallet button's icon and its
  // label; the label's arrival must not move the icon, or Lighthouse counts a layout shift
  // (decision 0033, ninth pass).
  const id = await createSession(request, business);
  await page.goto(`/checkout/${id}`);
  const button = page.getByRole("button", { name: "Pay with Google Pay" });
  await expect(button).toBeVisible();
  const place = await button.evaluate((element) => {
    const rect = () => {
      const r = element.querySelector("img")!.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    };
    const withLabel = rect();
    for (const node of [...element.childNodes]) if (node.nodeType === Node.TEXT_NODE) node.remove();
    return { withLabel, withoutLabel: rect() };
  });
  expect(place.withLabel.width).toBe(20);
  expect(place.withoutLabel).toEqual(place.withLabel);
});

test("a session forcing a method offers only that method", async ({ page, request, business }) => {
  const id = await createSession(request, business, { paymentMethodId: "stripe_credit" });
  await page.goto(`/checkout/${id}`);
  await expect(page.getByLabel("Card number")).toBeVisible();
  await expect(page.getByRole("radio")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Pay with Apple Pay" })).toHaveCount(0);
});

test("billing details are prefilled from the session and checked before paying", async ({ page, request, business }) => {
  const id = await createSession(request, business, { customer: { email: "grace@example.com", name: "Grace Hopper" } });
  await page.goto(`/checkout/${id}`);
  await expect(page.getByLabel("Full name")).toHaveValue("Grace Hopper");
  await expect(page.getByLabel("Email")).toHaveValue("grace@example.com");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByRole("button", { name: "Pay $37.00" }).click();
  await expect(page.getByTestId("alert")).toContainText("Some details need your attention");
  await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Enter a valid email address.")).toBeVisible();
  await expect(page.getByText("Enter a valid card number.")).toBeVisible();
  await expect(page.getByText("Choose a country.")).toBeVisible();
  // The first invalid field takes the focus.
  await expect(page.getByLabel("Card number")).toBeFocused();
});

test("the country list joins the form once it has hydrated; its names and the stylesheet travel once", async ({ page, request, business }) => {
  const id = await createSession(request, business);
  // The server's HTML: the country select holds its placeholder only (decision 0033, fifth pass);
  // the names are in the page once, in React's data.
  const html = await (await request.get(`/checkout/${id}`)).text();
  const select = /<select[^>]*id="country"[^>]*>([\s\S]*?)<\/select>/.exec(html)?.[1];
  expect(select?.match(/<option/g)).toHaveLength(1);
  expect(select).toContain("Choose a country");
  expect(html.split("Andorra")).toHaveLength(2);
  // The inlined stylesheet is there once too: in its <style>, not again in React's data.
  expect(html.split(".test-banner{")).toHaveLength(2);
  await page.goto(`/checkout/${id}`);
  const country = page.getByLabel("Country", { exact: true });
  await expect(country.locator('option[value="ZW"]')).toHaveText("Zimbabwe");
  await expect(country.locator("option").first()).toHaveText("Choose a country");
  await country.selectOption({ label: "Brazil" });
  await expect(country).toHaveValue("BR");
});

test("an unknown session shows a clear not-found page", async ({ page }) => {
  const response = await page.goto("/checkout/cs_01NOSUCHSESSION0000000000000");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Payment session not found" })).toBeVisible();
  await expectAccessible(page);
});

test.describe("in Spanish", () => {
  test.use({ locale: "es-ES", extraHTTPHeaders: { "Accept-Language": "es" } });

  test("the page speaks Spanish to Accept-Language: es", async ({ page, request, business }) => {
    const id = await createSession(request, business);
    await page.goto(`/checkout/${id}`);
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    await expect(page.getByTestId("test-mode")).toContainText("Modo de prueba");
    await expect(page.getByTestId("total")).toHaveText(/^37,00\sUS\$$/);
    await expect(page.getByLabel("Número de tarjeta")).toBeVisible();
    await expect(page.getByRole("radio", { name: "Tarjeta" })).toBeChecked();
    await expect(page.getByRole("option", { name: "Alemania" })).toBeAttached();
    await page.getByRole("button", { name: /^Pagar 37,00\sUS\$$/ }).click();
    await expect(page.getByText("Introduce un número de tarjeta válido.")).toBeVisible();
    const missing = await page.goto("/checkout/cs_01NOSUCHSESSION0000000000000");
    expect(missing?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Sesión de pago no encontrada" })).toBeVisible();
  });
});

test.describe("in Brazilian Portuguese", () => {
  test.use({ locale: "pt-BR", extraHTTPHeaders: { "Accept-Language": "pt-BR,pt;q=0.9" } });

  test("the page speaks Portuguese to Accept-Language: pt-BR", async ({ page, request, business }) => {
    const id = await createSession(request, business);
    await page.goto(`/checkout/${id}`);
    await expect(page.locator("html")).toHaveAttribute("lang", "pt-BR");
    await expect(page.getByTestId("total")).toHaveText(/^US\$\s37,00$/);
    await expect(page.getByLabel("Número do cartão")).toBeVisible();
  });
});

test("pages carry a strict nonce-based CSP and the other security headers", async ({ page, request, business }) => {
  const id = await createSession(request, business);
  const response = await page.goto(`/checkout/${id}`);
  const headers = response!.headers();
  const csp = headers["content-security-policy"] ?? "";
  const directives = Object.fromEntries(csp.split(";").map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]));
  const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(directives["script-src"]?.join(" ") ?? "")?.[1];
  expect(nonce, csp).toBeTruthy();
  expect(directives["script-src"]).not.toContain("'unsafe-inline'");
  expect(directives["script-src"]).not.toContain("'unsafe-eval'");
  expect(directives["frame-ancestors"]).toEqual(["'none'"]);
  expect(directives["object-src"]).toEqual(["'none'"]);
  // A sandbox business's page never needs Stripe.js: none of Stripe's hosts are allowed.
  expect(csp).not.toContain("stripe");
  expect(directives["frame-src"]).toEqual(["'none'"]);
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  // Every script of the page carries this response's nonce, and the page works (it hydrated).
  const scripts = await page.locator("script").evaluateAll((els) => els.map((el) => (el as HTMLScriptElement).nonce));
  expect(scripts.length).toBeGreaterThan(0);
  expect(new Set(scripts)).toEqual(new Set([nonce]));
  // The stylesheet is inlined (decision 0033): a <style> with the nonce, applied; no stylesheet to
  // request before the first paint.
  const styles = await page.locator("style").evaluateAll((els) => els.map((el) => (el as HTMLStyleElement).nonce));
  expect(styles.length).toBeGreaterThan(0);
  expect(new Set(styles)).toEqual(new Set([nonce]));
  expect(await page.locator('link[rel="stylesheet"]').count()).toBe(0);
  expect(await page.getByTestId("pay-form").evaluate((el) => getComputedStyle(el).borderTopStyle)).toBe("solid");
  await page.getByRole("button", { name: "Use 4242 4242 4242 4242" }).click();
  await expect(page.getByLabel("Card number")).toHaveValue("4242 4242 4242 4242");
  // A fresh nonce for every response.
  const again = await request.get(`/checkout/${id}`);
  expect(again.headers()["content-security-policy"]).not.toContain(`'nonce-${nonce}'`);
  // The JSON API is not touched by the page proxy.
  const api = await request.get(`/api/checkout/sessions/${id}`);
  expect(api.status()).toBe(200);
  expect(api.headers()["content-security-policy"]).toBeUndefined();
});

test("sandbox pages never load Stripe.js; a live business without Stripe says cards are not configured", async ({ page, request, business, liveBusiness }) => {
  const thirdParty: string[] = [];
  page.on("request", (r) => {
    if (!r.url().startsWith("http://localhost")) thirdParty.push(r.url());
  });
  await page.goto(`/checkout/${await createSession(request, business)}`);
  await expect(page.getByLabel("Card number")).toBeVisible();
  const live = await page.goto(`/checkout/${await createSession(request, liveBusiness)}`);
  await expect(page.getByRole("heading", { name: "Card payments are not configured" })).toBeVisible();
  // Live businesses' pages may load Stripe.js, and only from Stripe.
  expect(live!.headers()["content-security-policy"]).toContain("script-src 'self' 'nonce-");
  expect(live!.headers()["content-security-policy"]).toContain("https://js.stripe.com");
  expect(live!.headers()["content-security-policy"]).toContain("frame-src https://js.stripe.com");
  await expect(page.getByTestId("test-mode")).toHaveCount(0);
  expect(thirdParty).toEqual([]);
});

test("the framework's scripts are requested once the page has been painted, then it hydrates", async ({ page, request, business }) => {
  const id = await createSession(request, business);
  // The server's HTML names the framework's chunks in inert placeholders only (decision 0033,
  // tenth pass): nothing for the browser to fetch or run while it parses and paints.
  const html = await (await request.get(`/checkout/${id}`)).text();
  expect(html).not.toMatch(/<script[^>]*\ssrc="\/_next\/static\/[^"]*"[^>]*\sasync/);
  expect(html).not.toMatch(/<link[^>]*rel="preload"[^>]*as="script"/);
  expect(html.match(/<script type="kassa\/deferred" data-src="\/_next\/static\/chunks\/[^"]+\.js"/g)?.length).toBeGreaterThan(3);
  await page.goto(`/checkout/${id}`);
  // It hydrates: the test cards fill the form, and every placeholder has become its script.
  await page.getByRole("button", { name: "Use 4242 4242 4242 4242" }).click();
  await expect(page.getByLabel("Card number")).toHaveValue("4242 4242 4242 4242");
  expect(await page.locator('script[type="kassa/deferred"]').count()).toBe(0);
  const timing = await page.evaluate(() => ({
    // The first paint: on a busy machine Chromium stamps first-contentful-paint with a presentation
    // time that can come after the frame the loader saw (CI once: chunks at 727 ms, FCP 784 ms).
    paint: performance.getEntriesByType("paint").find((e) => e.name === "first-paint")?.startTime,
    chunks: performance
      .getEntriesByType("resource")
      .filter((e) => new URL(e.name).pathname.startsWith("/_next/static/chunks/"))
      .map((e) => e.startTime),
  }));
  expect(timing.paint).toBeGreaterThan(0);
  expect(timing.chunks.length).toBeGreaterThan(3);
  // Each chunk was requested after the page's first paint.
  for (const requested of timing.chunks) expect(requested).toBeGreaterThanOrEqual(timing.paint!);
});

test("in a browser that reports no largest paint, the scripts still load after the first frames", async ({ page, request, business }) => {
  const id = await createSession(request, business);
  // As Safari and Firefox: no largest-contentful-paint entries.
  await page.addInitScript(() => {
    const types = PerformanceObserver.supportedEntryTypes.filter((type) => type !== "largest-contentful-paint");
    Object.defineProperty(PerformanceObserver, "supportedEntryTypes", { get: () => types });
  });
  await page.goto(`/checkout/${id}`);
  await page.getByRole("button", { name: "Use 4242 4242 4242 4242" }).click();
  await expect(page.getByLabel("Card number")).toHaveValue("4242 4242 4242 4242");
});

test("opened in a tab not shown, the page loads its scripts at once and hydrates", async ({ page, request, business }) => {
  const id = await createSession(request, business);
  // A background tab paints nothing: the loader starts while the HTML is still being parsed, and
  // picks up the placeholders parsed after it once the parse ends.
  await page.addInitScript(() => {
    Object.defineProperty(document, "visibilityState", { get: () => "hidden" });
  });
  await page.goto(`/checkout/${id}`);
  await page.getByRole("button", { name: "Use 4242 4242 4242 4242" }).click();
  await expect(page.getByLabel("Card number")).toHaveValue("4242 4242 4242 4242");
  expect(await page.locator('script[type="kassa/deferred"]').count()).toBe(0);
});
