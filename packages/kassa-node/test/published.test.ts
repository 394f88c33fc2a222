import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signatureHeaders } from "@/lib/webhooks/sign-webhook";

// The package as an integrator gets it: `npm pack` (which builds it), unpacked into a throwaway
// project's node_modules, imported and required by plain `node` (no TypeScript loader), and
// type-checked by `tsc` with Node's own module resolution, as ES module and as CommonJS.

const packageDir = path.resolve(import.meta.dirname, "..");
const requireHere = createRequire(import.meta.url);
const tsc = requireHere.resolve("typescript/bin/tsc");

let project: string;

/** Links a dependency of the package from this checkout, as `npm install` would have put it. */
function linkDependency(name: string, from: string) {
  const manifest = createRequire(from).resolve(`${name}/package.json`);
  const target = path.join(project, "node_modules", name);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.symlinkSync(path.dirname(manifest), target, "dir");
  return path.dirname(manifest);
}

beforeAll(() => {
  project = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-node-published-"));
  // `npm pack` builds first (prepack); the build runs on its own here so that pack's stdout is its JSON.
  execFileSync("npm", ["run", "build"], { cwd: packageDir, stdio: "ignore" });
  const packed = JSON.parse(
    execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", project], {
      cwd: packageDir,
      encoding: "utf8",
    }),
  ) as { filename: string; files: { path: string }[] }[];
  const tarball = path.join(project, packed[0]!.filename);
  const installed = path.join(project, "node_modules", "@kassa", "node");
  fs.mkdirSync(installed, { recursive: true });
  execFileSync("tar", ["-xzf", tarball, "-C", installed, "--strip-components=1"]);
  const openapiFetch = linkDependency("openapi-fetch", path.join(packageDir, "package.json"));
  linkDependency("openapi-typescript-helpers", path.join(openapiFetch, "package.json"));
  fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "integrator", private: true }));
}, 300_000);

afterAll(() => {
  if (project) fs.rmSync(project, { recursive: true, force: true });
});

/** Runs a script with plain node, nothing preloaded, and returns what it printed. */
function runNode(file: string, source: string, env: Record<string, string> = {}): string {
  fs.writeFileSync(path.join(project, file), source);
  return execFileSync(process.execPath, [file], {
    cwd: project,
    encoding: "utf8",
    env: { NODE_ENV: "production", PATH: process.env.PATH ?? "", ...env }, // nothing preloaded: no NODE_OPTIONS
  });
}

const secret = "whsec_published_package_test_secret";
const body = JSON.stringify({ type: "succeeded", order_id: "order-1", amount: 2500, currency: "USD" });

// The same checks from either module system: a call through the client to a local server that
// answers as Kassa does, an error unwrapped into KassaApiError, and a signed delivery verified.
const checks = `
const http = require_("node:http");
const server = http.createServer((req, res) => {
  if (req.url === "/api/payment/cs_1" && req.headers.authorization === "Bearer sk_test_x") {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ session_id: "cs_1", status: "succeeded", idem: req.headers["idempotency-key"] ?? null }));
  } else {
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: "not_found", message: "No such payment." }));
  }
});
server.listen(0, "127.0.0.1", async () => {
  const baseUrl = "http://127.0.0.1:" + server.address().port + "/api";
  const kassa = kassaNode.createKassaClient({ baseUrl, secretKey: "sk_test_x" });
  const found = await kassa.GET("/payment/{session_id}", { params: { path: { session_id: "cs_1" } } });
  let missing;
  try {
    kassaNode.unwrap(await kassa.GET("/payment/{session_id}", { params: { path: { session_id: "cs_2" } } }));
  } catch (error) {
    missing = { isKassaError: error instanceof kassaNode.KassaApiError, status: error.status, body: error.body };
  }
  const event = kassaNode.verifyWebhook(process.env.BODY, JSON.parse(process.env.HEADERS), process.env.SECRET);
  let forged;
  try {
    kassaNode.verifyWebhook(process.env.BODY + " ", JSON.parse(process.env.HEADERS), process.env.SECRET);
  } catch (error) {
    forged = error instanceof kassaNode.WebhookVerificationError;
  }
  console.log(JSON.stringify({ found: found.data, missing, event, forged }));
  server.close();
});
`;

describe("@kassa/node as published", { timeout: 180_000 }, () => {
  const env = () => ({
    BODY: body,
    HEADERS: JSON.stringify(signatureHeaders([secret], "evt_01JF3Q6R1XKX2V7T9Y0ZB4C8DM", body, new Date())),
    SECRET: secret,
  });
  const expected = {
    found: { session_id: "cs_1", status: "succeeded", idem: null },
    missing: { isKassaError: true, status: 404, body: { error: "not_found", message: "No such payment." } },
    event: JSON.parse(body),
    forged: true,
  };

  it("ships built JavaScript and declarations, not TypeScript source", () => {
    const files = fs.readdirSync(path.join(project, "node_modules", "@kassa", "node", "dist")).sort();
    expect(files).toEqual(["index.cjs", "index.d.cts", "index.d.ts", "index.js"]);
    expect(fs.existsSync(path.join(project, "node_modules", "@kassa", "node", "src"))).toBe(false);
  });

  it("is imported as an ES module by plain node", () => {
    const out = runNode(
      "esm.mjs",
      `import * as kassaNode from "@kassa/node";\nimport { createRequire } from "node:module";\nconst require_ = createRequire(import.meta.url);\n${checks}`,
      env(),
    );
    expect(JSON.parse(out)).toEqual(expected);
  });

  it("is required as CommonJS by plain node", () => {
    const out = runNode("cjs.cjs", `const kassaNode = require("@kassa/node");\nconst require_ = require;\n${checks}`, env());
    expect(JSON.parse(out)).toEqual(expected);
  });

  it("type-checks under Node's module resolution, from ES modules and CommonJS", () => {
    const consumer = (importLine: string) => `${importLine}
const kassa = createKassaClient({ baseUrl: "https://pay.example.com/api", secretKey: "sk_test_x" });
export async function read(): Promise<string | null | undefined> {
  const { data } = await kassa.GET("/payment/{session_id}", { params: { path: { session_id: "cs_1" } } });
  return data?.status;
}
export function verify(body: string, headers: Record<string, string>): string {
  const event: WebhookPayload = verifyWebhook(body, headers, "whsec_x");
  return event.order_id;
}
`;
    fs.writeFileSync(path.join(project, "consumer.mts"), consumer(`import { createKassaClient, verifyWebhook, type WebhookPayload } from "@kassa/node";`));
    fs.writeFileSync(
      path.join(project, "consumer.cts"),
      consumer(`import { createKassaClient, verifyWebhook, type WebhookPayload } from "@kassa/node";`),
    );
    // A wrong field must fail, or the check proves nothing.
    fs.writeFileSync(
      path.join(project, "wrong.mts"),
      `import { createKassaClient } from "@kassa/node";
const kassa = createKassaClient({ baseUrl: "x", secretKey: "y" });
const { data } = await kassa.GET("/payment/{session_id}", { params: { path: { session_id: "cs_1" } } });
export const status: number = data!.status;
`,
    );
    const check = (files: string[]) =>
      execFileSync(
        process.execPath,
        [tsc, "--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "--lib", "es2023,dom", ...files],
        { cwd: project, encoding: "utf8" },
      );
    expect(() => check(["consumer.mts", "consumer.cts"])).not.toThrow();
    let diagnostics = "";
    try {
      check(["wrong.mts"]);
    } catch (error) {
      diagnostics = String((error as { stdout?: string }).stdout);
    }
    expect(diagnostics).toMatch(/wrong\.mts\(4,\d+\): error TS2322/);
  });
});
