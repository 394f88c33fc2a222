import { afterEach, describe, expect, it, vi } from "vitest";
import { resetEnv } from "@/lib/env";
import { sdkBases, sdkResponse } from "./serve-sdk";

const get = (file: string, headers?: HeadersInit) =>
  sdkResponse(new Request(`http://kassa.test/sdk/v1/${file}`, { headers }), file);

const saved = { ORIGIN: process.env.ORIGIN, API_BASE_URL: process.env.API_BASE_URL, CHECKOUT_URL: process.env.CHECKOUT_URL };
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnv();
});

// Bounds on hangs: the first request bundles the SDK (seconds on a busy machine).
describe("GET /sdk/v1/{file}", { timeout: 120_000 }, () => {
  it("serves the ES module to any origin, cacheable and revalidated by ETag", async () => {
    const res = await get("kassa.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    expect(await res.text()).toMatch(/export\s*\{/);

    const again = await get("kassa.js", { "if-none-match": `W/${etag}` });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(await again.text()).toBe("");
    expect((await get("kassa.js", { "if-none-match": '"other"' })).status).toBe(200);
  });

  it("serves the script-tag build and the types, each with its own ETag", async () => {
    const [esm, script, types] = await Promise.all([get("kassa.js"), get("kassa.global.js"), get("kassa.d.ts")]);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(types.headers.get("content-type")).toBe("application/typescript; charset=utf-8");
    expect(await types.text()).toContain("export declare function Kassa(publicKey: string");
    expect(new Set([esm, script, types].map((r) => r.headers.get("etag"))).size).toBe(3);
  });

  it("answers 404 for any other file", async () => {
    for (const file of ["kassa.ts", "..%2Fpackage.json", "kassa.js.map"]) {
      const res = await get(file);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: "Not found" });
    }
  });
});

describe("the bases compiled into the bundle", () => {
  it("are paths on ORIGIN, so the script's own address decides the host", () => {
    process.env.ORIGIN = "https://pay.example.com";
    delete process.env.API_BASE_URL;
    delete process.env.CHECKOUT_URL;
    resetEnv();
    expect(sdkBases()).toEqual({ apiBase: "/api", checkoutBase: "/checkout" });
  });

  it("stay absolute when configured on another host", () => {
    process.env.ORIGIN = "https://pay.example.com";
    process.env.API_BASE_URL = "https://api.example.com/v1";
    process.env.CHECKOUT_URL = "https://pay.example.com/checkout";
    resetEnv();
    expect(sdkBases()).toEqual({ apiBase: "https://api.example.com/v1", checkoutBase: "/checkout" });
  });
});

describe("a deployment of the build alone", () => {
  it("serves the SDK the build made, with no source folder beside it", async () => {
    const { default: fs } = await import("node:fs/promises");
    const { default: os } = await import("node:os");
    const { default: path } = await import("node:path");
    const { writeBuiltSdk, sdkSourceDir } = await import("./build-sdk");
    const source = await fs.mkdtemp(path.join(os.tmpdir(), "kassa-sdk-source-"));
    await fs.cp(sdkSourceDir(), sdkSourceDir(source), { recursive: true });
    await writeBuiltSdk(source);
    const deployed = await fs.mkdtemp(path.join(os.tmpdir(), "kassa-sdk-deployed-"));
    await fs.cp(path.join(source, ".next"), path.join(deployed, ".next"), { recursive: true });
    process.env.ORIGIN = "https://pay.example.com";
    process.env.API_BASE_URL = "https://api.example.com/v1";
    resetEnv();
    const cwd = vi.spyOn(process, "cwd").mockReturnValue(deployed);
    try {
      vi.resetModules(); // a fresh module: the files are read once per process
      const served = await import("./serve-sdk");
      const res = await served.sdkResponse(new Request("http://kassa.test/sdk/v1/kassa.js"), "kassa.js");
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).toContain('"https://api.example.com/v1"');
      expect(text).not.toContain("__KASSA_SDK_");
    } finally {
      cwd.mockRestore();
      await fs.rm(source, { recursive: true, force: true });
      await fs.rm(deployed, { recursive: true, force: true });
    }
  });
});
