// Playwright drives Debian's Chromium here (`npx playwright install` cannot download browsers).
// Installs it when missing and we may (root with apt-get); otherwise says how.
import { execSync } from "node:child_process";
import fs from "node:fs";

const path = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!fs.existsSync(path)) {
  const root = process.getuid?.() === 0;
  const apt = fs.existsSync("/usr/bin/apt-get");
  if (root && apt && !process.env.CHROMIUM_PATH) {
    console.log("Chromium is missing: installing Debian's chromium package for the browser tests…");
    execSync("apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium", { stdio: "inherit" });
  } else {
    console.error(`Chromium not found at ${path}. Install it (Debian: apt-get install chromium) or set CHROMIUM_PATH.`);
    process.exit(1);
  }
}
