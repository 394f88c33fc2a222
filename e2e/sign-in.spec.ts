import { spawnSync } from "node:child_process";
import { expect, expectAccessible, test } from "./fixtures";

type DemoLogin = { email: string; password: string; business_id: string };

/** The demo login the e2e server printed at start (`npx kassa demo login` prints the same, from the server). */
function demoLogin(): DemoLogin {
  const env = { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR ?? ".data-e2e" };
  const run = spawnSync("npx", ["kassa", "demo", "login", "--json"], { env, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`npx kassa demo login failed: ${run.stderr}${run.stdout}`);
  return JSON.parse(run.stdout.trim().split("\n").pop()!) as DemoLogin;
}

test.describe("staff sign-in", () => {
  test("signed out, /dashboard and /admin lead to the sign-in page; a wrong password is refused; the demo login signs in and out", async ({ page, context }) => {
    const demo = demoLogin();
    expect(demo.email).toBe("demo@kassa.local");

    await page.goto("/admin");
    await expect(page).toHaveURL(/\/dashboard\/sign-in\?callbackUrl=%2Fadmin$/);
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/dashboard\/sign-in\?callbackUrl=%2Fdashboard$/);
    await expect(page.getByRole("heading", { name: "Sign in to Kassa" })).toBeVisible();
    await expectAccessible(page);

    await page.getByLabel("E-mail").fill(demo.email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.locator("#sign-in-error")).toHaveText("Wrong e-mail or password.");
    await expect(page).toHaveURL(/\/dashboard\/sign-in/);
    expect((await context.cookies()).map((c) => c.name)).not.toContain("authjs.session-token");

    await page.getByLabel("Password").fill(demo.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
    const session = (await context.cookies()).find((c) => c.name === "authjs.session-token");
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", secure: false }); // plain http here: Secure over https only

    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/dashboard\/sign-in/);
    expect((await context.cookies()).map((c) => c.name)).not.toContain("authjs.session-token");
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/dashboard\/sign-in\?callbackUrl=%2Fdashboard$/);
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the form still signs in, and a forgotten-password request answers without saying whether the e-mail exists", async ({ page, context }) => {
      const demo = demoLogin();
      await page.goto("/dashboard/forgot-password");
      await page.getByLabel("E-mail").fill("nobody@example.com");
      await page.getByRole("button", { name: "Send a reset link" }).click();
      const notice = page.getByText("If an account uses that e-mail");
      const unknown = await notice.textContent();
      await page.getByLabel("E-mail").fill(demo.email);
      await page.getByRole("button", { name: "Send a reset link" }).click();
      await expect(notice).toHaveText(unknown!);

      await page.goto("/dashboard/sign-in?callbackUrl=%2Fdashboard");
      await page.getByLabel("E-mail").fill(demo.email);
      await page.getByLabel("Password").fill(demo.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page).toHaveURL(/\/dashboard$/);
      expect((await context.cookies()).map((c) => c.name)).toContain("authjs.session-token");
    });

    test("the sign-in form replayed from another origin signs nobody in (Next's origin check on server actions)", async ({ page, request, baseURL }) => {
      const demo = demoLogin();
      await page.goto("/dashboard/sign-in");
      // The form's own fields (the action id among them) with the right credentials, as a cross-site page would post them.
      const fields: Record<string, string> = { email: demo.email, password: demo.password };
      for (const input of await page.locator("form input[type=hidden]").all())
        fields[(await input.getAttribute("name"))!] = (await input.getAttribute("value")) ?? "";
      const post = (origin: string) => request.post("/dashboard/sign-in", { multipart: fields, headers: { origin }, maxRedirects: 0 });
      const sessionCookie = (headers: { name: string; value: string }[]) =>
        headers.some((h) => h.name.toLowerCase() === "set-cookie" && h.value.startsWith("authjs.session-token="));

      const forged = await post("https://evil.example");
      expect(sessionCookie(forged.headersArray()), `status ${forged.status()}`).toBe(false);
      // The same post from the page's own origin signs in: the refusal above is the origin check.
      const own = await post(new URL(baseURL!).origin);
      expect(sessionCookie(own.headersArray()), `status ${own.status()}`).toBe(true);
    });
  });
});
