import type { LookupAddress } from "node:dns";
import http from "node:http";
import net from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  addressRefusal,
  checkWebhookTarget,
  pinnedLookup,
  WebhookTargetRefusedError,
  type HostResolver,
} from "./address-policy";
import { sendWebhook } from "./send-webhook";
import { startLoopbackReceiver } from "./testing/loopback-receiver";

// No test here sends a packet anywhere but 127.0.0.1: names resolve through a fake resolver, and
// a tripwire on net.Socket#connect fails the test if a refused target were ever connected to.

const fakeDns: Record<string, LookupAddress[]> = {
  localhost: [
    { address: "127.0.0.1", family: 4 },
    { address: "::1", family: 6 },
  ],
  "internal.example": [{ address: "10.0.0.7", family: 4 }],
  "metadata.example": [{ address: "169.254.169.254", family: 4 }],
  "mixed.example": [
    { address: "93.184.216.34", family: 4 },
    { address: "10.1.2.3", family: 4 },
  ],
  "mapped.example": [{ address: "::ffff:10.0.0.1", family: 6 }],
  "ula.example": [{ address: "fd00:ec2::254", family: 6 }],
  "public.example": [
    { address: "93.184.216.34", family: 4 },
    { address: "2606:2800:220:1:248:1893:25c8:1946", family: 6 },
  ],
};

const resolve: HostResolver = async (hostname) => {
  const answer = fakeDns[hostname];
  if (!answer) throw Object.assign(new Error(`unexpected lookup of ${hostname}`), { code: "ENOTFOUND" });
  return answer;
};

const refusedUrls = [
  "http://127.0.0.1/hook",
  "http://127.0.0.2:8080/hook",
  "http://localhost/hook",
  "http://LOCALHOST:3000/hook",
  "http://10.0.0.1/hook",
  "http://10.255.255.255/hook",
  "http://172.16.0.1/hook",
  "http://172.31.255.1/hook",
  "http://192.168.1.1/hook",
  "http://100.64.0.1/hook",
  "http://169.254.169.254/latest/meta-data/",
  "http://0.0.0.0/hook",
  "http://0/hook",
  "http://255.255.255.255/hook",
  "http://224.0.0.1/hook",
  "http://[::1]/hook",
  "http://[::]/hook",
  "http://[::ffff:127.0.0.1]/hook",
  "http://[::ffff:7f00:1]/hook",
  "http://[::ffff:10.0.0.1]/hook",
  "http://[::ffff:169.254.169.254]/hook",
  "http://[fe80::1]/hook",
  "http://[fd00:ec2::254]/hook",
  "http://[64:ff9b::a00:1]/hook",
  "http://[2002:a00:1::]/hook",
  // Decimal, hex, octal and short encodings of 127.0.0.1 and 169.254.169.254.
  "http://2130706433/hook",
  "http://0x7f000001/hook",
  "http://0x7f.0x0.0x0.0x1/hook",
  "http://0177.0.0.1/hook",
  "http://017700000001/hook",
  "http://127.1/hook",
  "http://2852039166/hook",
  "http://0xa9fea9fe/hook",
  // Names resolving inside.
  "http://internal.example/hook",
  "https://metadata.example/hook",
  "http://mixed.example/hook",
  "http://mapped.example/hook",
  "http://ula.example/hook",
  // Not http(s), or not a URL.
  "ftp://public.example/hook",
  "file:///etc/passwd",
  "gopher://public.example/",
  "javascript:alert(1)",
  "not a url",
  "//public.example/hook",
];

describe("webhook address policy", () => {
  afterEach(() => vi.restoreAllMocks());

  it.each(refusedUrls)("refuses %s", async (url) => {
    await expect(checkWebhookTarget(url, { allowPrivate: false, resolve })).rejects.toBeInstanceOf(
      WebhookTargetRefusedError,
    );
  });

  it("accepts a name whose every address is public, and pins those addresses", async () => {
    const target = await checkWebhookTarget("https://public.example/hooks?x=1", {
      allowPrivate: false,
      resolve,
    });
    expect(target.addresses.map((a) => a.address)).toEqual([
      "93.184.216.34",
      "2606:2800:220:1:248:1893:25c8:1946",
    ]);
    await expect(
      checkWebhookTarget("http://93.184.216.34/", { allowPrivate: false, resolve }),
    ).resolves.toMatchObject({
      addresses: [{ address: "93.184.216.34", family: 4 }],
    });
  });

  it("classifies addresses", () => {
    expect(addressRefusal("8.8.8.8")).toBeNull();
    expect(addressRefusal("2606:4700::1111")).toBeNull();
    expect(addressRefusal("::ffff:8.8.8.8")).toBeNull();
    for (const address of [
      "127.0.0.1",
      "10.0.0.1",
      "169.254.169.254",
      "::1",
      "::ffff:10.0.0.1",
      "fe80::1%eth0",
      "192.0.2.1",
    ])
      expect(addressRefusal(address), address).not.toBeNull();
    expect(addressRefusal("2130706433")).not.toBeNull();
  });

  it("allows private targets only when configured to", async () => {
    await expect(
      checkWebhookTarget("http://10.0.0.1/hook", { allowPrivate: true, resolve }),
    ).resolves.toMatchObject({
      addresses: [],
    });
  });

  it.each(refusedUrls)("never opens a connection for %s", async (url) => {
    const connect = vi.spyOn(net.Socket.prototype, "connect").mockImplementation(() => {
      throw new Error("tripwire: a refused target was connected to");
    });
    const result = await sendWebhook({
      url,
      body: "{}",
      headers: {},
      timeoutMs: 1000,
      allowPrivate: false,
      resolve,
    });
    expect(result).toMatchObject({ ok: false, refused: true, statusCode: null });
    expect(result.error).toMatch(/^(Refused|Could not resolve)/);
    expect(connect).not.toHaveBeenCalled();
  });

  it("pins the connection to the checked addresses, whatever DNS would say now", async () => {
    const receiver = await startLoopbackReceiver();
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const request = http.request(
          {
            hostname: "shop.example",
            port: receiver.port,
            path: "/hooks",
            method: "POST",
            agent: false,
            lookup: pinnedLookup([{ address: "127.0.0.1", family: 4 }]) as never,
          },
          (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          },
        );
        request.on("error", reject);
        request.end("{}");
      });
      expect(status).toBe(200);
      expect(receiver.requests[0]!.headers.host).toBe(`shop.example:${receiver.port}`);
    } finally {
      await receiver.close();
    }
  });

  it("refuses a name resolving to loopback before connecting (the receiver sees no connection)", async () => {
    const receiver = await startLoopbackReceiver();
    try {
      const sneaky: HostResolver = async () => [{ address: "127.0.0.1", family: 4 }];
      const result = await sendWebhook({
        url: `http://sneaky.example:${receiver.port}/hooks`,
        body: "{}",
        headers: {},
        timeoutMs: 1000,
        allowPrivate: false,
        resolve: sneaky,
      });
      expect(result.refused).toBe(true);
      expect(result.error).toContain("127.0.0.1");
      expect(receiver.connections).toBe(0);
      expect(receiver.requests).toHaveLength(0);

      // The same target is reached when private addresses are allowed (development, tests), and
      // that connection goes through net.Socket#connect: the tripwire above would have seen one.
      const connect = vi.spyOn(net.Socket.prototype, "connect");
      const allowed = await sendWebhook({
        url: receiver.url,
        body: "{}",
        headers: {},
        timeoutMs: 10_000,
        allowPrivate: true,
      });
      expect(allowed).toMatchObject({ ok: true, statusCode: 200 });
      expect(receiver.connections).toBe(1);
      expect(connect).toHaveBeenCalled();
    } finally {
      await receiver.close();
    }
  });
});
