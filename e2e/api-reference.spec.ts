import { expect, test } from "./fixtures";

type Operation = { summary?: string; tags?: string[] };
type Document = { info: { title: string }; paths: Record<string, Record<string, Operation>> };

// The API reference renders the server's own OpenAPI document with the bundled Scalar, offline:
// any request to another origin (fonts, telemetry, Scalar's services) is recorded and aborted.
test("the API reference renders the OpenAPI document signed out, without any request off the Kassa origin", async ({
  page,
  baseURL,
  isMobile,
}) => {
  const origin = new URL(baseURL!).origin;
  const offOrigin: string[] = [];
  await page.route(
    (url) => url.origin !== origin,
    (route) => {
      offOrigin.push(route.request().url());
      return route.abort("blockedbyclient");
    },
  );

  const response = await page.goto("/docs/api");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle("API reference · Kassa");
  // Scripts stay nonce-only; only styles are allowed inline on this page.
  const policy = response!.headers()["content-security-policy"];
  expect(policy).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  expect(policy).toContain("style-src 'self' 'unsafe-inline'");

  // What the page must show, as the server's document (GET /api/openapi.json) names it.
  const document = (await (await page.request.get("/api/openapi.json")).json()) as Document;
  const createSession = document.paths["/session"]?.post;
  const createPayout = document.paths["/payout/create"]?.post;
  expect(createSession?.summary && createSession.tags?.[0]).toBeTruthy();
  expect(createPayout?.summary && createPayout.tags?.[0]).toBeTruthy();

  await expect(page.getByRole("heading", { level: 1, name: document.info.title })).toBeVisible();
  const sidebar = page.getByRole("navigation", { name: `Sidebar for ${document.info.title}` });
  // On a phone the sidebar is behind the header's menu button, and closes after each choice.
  const openSidebar = async () => {
    if (isMobile) await page.getByRole("button", { name: "Open Menu" }).click();
  };

  // POST /session: listed under its tag, and its section describes it.
  await openSidebar();
  await sidebar.getByRole("button", { name: `${createSession!.summary} HTTP Method: POST` }).click();
  await expect(page.getByRole("heading", { level: 3, name: createSession!.summary })).toBeVisible();
  await expect(page.getByRole("list", { name: `${createSession!.tags![0]} endpoints` })).toContainText(
    /post\s*\/session/i,
  );

  // POST /payout/create: its tag is folded at first; open it from the sidebar.
  await openSidebar();
  await sidebar.getByRole("button", { name: new RegExp(`^${createPayout!.tags![0]} Open Group`) }).click();
  await sidebar.getByRole("button", { name: `${createPayout!.summary} HTTP Method: POST` }).click();
  await expect(page.getByRole("heading", { level: 3, name: createPayout!.summary })).toBeVisible();
  await expect(page.getByRole("list", { name: `${createPayout!.tags![0]} endpoints` })).toContainText(
    /post\s*\/payout\/create/i,
  );

  await page.waitForLoadState("networkidle");
  expect(offOrigin).toEqual([]);
});
