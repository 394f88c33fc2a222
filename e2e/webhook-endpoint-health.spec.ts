import type { APIRequestContext } from "@playwright/test";
import { expect, expectAccessible, test, ownerOf } from "./fixtures";

type Endpoint = { state: string; held_events: number; failed_events: number };

async function endpointOf(request: APIRequestContext, auth: Record<string, string>): Promise<Endpoint> {
  const read = await request.get("/api/webhooks/endpoint", { headers: auth });
  expect(read.status(), await read.text()).toBe(200);
  return (await read.json()) as Endpoint;
}

async function sendTests(request: APIRequestContext, auth: Record<string, string>, count: number) {
  for (let i = 0; i < count; i++) {
    const sent = await request.post("/api/webhooks/test", { headers: auth, data: {} });
    expect(sent.status(), await sent.text()).toBe(201);
  }
}

/** Moves the sandbox clock an hour at a time (each advance runs the retries that came due) until `done`. */
async function advanceUntil(request: APIRequestContext, auth: Record<string, string>, done: () => Promise<boolean>) {
  await expect(async () => {
    const advanced = await request.post("/api/sandbox/clock/advance", { headers: auth, data: { seconds: 3600 } });
    expect(advanced.status(), await advanced.text()).toBe(200);
    expect(await done()).toBe(true);
  }).toPass({ timeout: 120_000, intervals: [200] });
}

// The real rule, on the sandbox clock: an endpoint that refuses every attempt for 3 days and 20
// events is disabled; the owner sees the banner, re-enables it (resending what was held), then
// pauses and resumes it by hand.
test("a failing endpoint is disabled with a banner; the owner re-enables, pauses and resumes it", async ({ page, business }) => {
  test.setTimeout(300_000);
  const auth = { authorization: `Bearer ${business.secret_key}` };
  const request = page.request;
  // Nothing listens on port 1: every attempt is refused at once.
  const set = await request.post("/api/webhooks/endpoint", { headers: auth, data: { url: "http://127.0.0.1:1/hooks" } });
  expect(set.status(), await set.text()).toBe(200);
  await sendTests(request, auth, 20);
  await advanceUntil(request, auth, async () => (await endpointOf(request, auth)).failed_events >= 20);
  expect((await endpointOf(request, auth)).state).toBe("active");
  const days = await request.post("/api/sandbox/clock/advance", { headers: auth, data: { seconds: 3 * 24 * 3600 } });
  expect(days.status(), await days.text()).toBe(200);
  await sendTests(request, auth, 1);
  await advanceUntil(request, auth, async () => (await endpointOf(request, auth)).state === "disabled");
  // An event after that is held.
  await sendTests(request, auth, 1);
  await expect.poll(async () => (await endpointOf(request, auth)).held_events, { timeout: 60_000 }).toBe(1);

  const login = ownerOf(business);
  await page.goto("/dashboard/webhooks");
  await expect(page).toHaveURL(/\/dashboard\/sign-in/);
  await page.getByLabel("E-mail").fill(login.email);
  await page.getByLabel("Password").fill(login.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible({ timeout: 30_000 });

  const banner = page.getByTestId("webhook-endpoint-banner");
  await expect(banner).toContainText("Kassa stopped sending to your endpoint");
  await expect(banner).toContainText("Every attempt failed for more than 72 hours");
  await expect(banner).toContainText("1 event is held");
  await expectAccessible(page);

  const controls = page.getByTestId("webhook-endpoint-state");
  await expect(controls).toContainText("disabled");
  await controls.getByRole("button", { name: "Re-enable endpoint…" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("Kassa holds 1 event");
  await dialog.getByLabel("Send the 1 held event, oldest first").check();
  await dialog.getByRole("button", { name: "Re-enable" }).click();
  await expect(page.getByText("The endpoint is active again. 1 held event is being sent, oldest first.")).toBeVisible();
  await expect(page.getByTestId("webhook-endpoint-banner")).toHaveCount(0);
  await expect(controls).toContainText("active");

  // Paused by hand: the banner says so; resumed, it goes.
  await controls.getByRole("button", { name: "Pause sending" }).click();
  const paused = page.getByTestId("webhook-endpoint-banner");
  await expect(paused).toContainText("Sending is paused");
  await expect(paused).toContainText("Paused by hand");
  expect((await endpointOf(request, auth)).state).toBe("paused");
  await controls.getByRole("button", { name: "Resume sending…" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Resume" }).click();
  await expect(page.getByTestId("webhook-endpoint-banner")).toHaveCount(0);
  expect((await endpointOf(request, auth)).state).toBe("active");
});
