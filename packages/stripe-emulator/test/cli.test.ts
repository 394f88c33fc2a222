import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import Stripe from "stripe";
import { expect, it } from "vitest";

const bin = path.join(import.meta.dirname, "../bin/stripe-emulator.mjs");

it("runs as a server of its own that the official SDK talks to", async () => {
  const child = spawn(process.execPath, [bin, "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`emulator exited with ${code}`)));
      createInterface({ input: child.stdout }).on("line", (line) => {
        const found = /listening on (http:\/\/\S+)/.exec(line);
        if (found?.[1]) resolve(found[1]);
      });
    });
    const { hostname, port } = new URL(url);
    const stripe = new Stripe("sk_test_cli", { host: hostname, port: Number(port), protocol: "http" });
    const customer = await stripe.customers.create({ email: "cli@example.com" });
    expect(customer.id).toMatch(/^cus_/);
    expect((await stripe.customers.retrieve(customer.id)) as Stripe.Customer).toMatchObject({ email: "cli@example.com" });
  } finally {
    child.kill("SIGTERM");
  }
  const code = await new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once("exit", resolve)));
  expect(code).toBe(0);
});

it("refuses a port that is not one", async () => {
  const child = spawn(process.execPath, [bin, "--port", "http"], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise((resolve) => child.once("exit", resolve));
  expect(code).toBe(2);
  expect(stderr).toContain("--port must be a port number");
});
