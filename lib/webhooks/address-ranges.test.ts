import net from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ValidationError } from "@/lib/errors";
import { addressRefusal, checkWebhookTarget, WebhookTargetRefusedError } from "./address-policy";
import { sendWebhook } from "./send-webhook";
import { validateWebhookUrl } from "./validate-webhook-url";

// Every special-purpose range, checked where a webhook URL is set (the literal address) and where
// it is delivered (a name whose DNS answer is that address, then the connection). Names resolve
// through a stand-in resolver and a tripwire on net.Socket#connect fails the test if a refused
// address were connected to: nothing here sends a packet.

const refused: [range: string, addresses: string[]][] = [
  ["this network 0.0.0.0/8", ["0.0.0.0", "0.1.2.3"]],
  ["private", ["10.1.2.3", "172.16.0.1", "172.31.255.254", "192.168.0.1"]],
  ["carrier-grade NAT 100.64.0.0/10", ["100.64.0.1", "100.127.255.254"]],
  ["loopback", ["127.0.0.1", "127.255.255.254"]],
  ["link-local", ["169.254.169.254", "169.254.0.1"]],
  ["IETF protocol assignments 192.0.0.0/24", ["192.0.0.8", "192.0.0.170"]],
  ["documentation", ["192.0.2.1", "198.51.100.7", "203.0.113.200"]],
  ["6to4 relay anycast", ["192.88.99.1"]],
  ["benchmarking 198.18.0.0/15", ["198.18.0.1", "198.19.255.254"]],
  ["multicast", ["224.0.0.1", "239.255.255.250"]],
  ["reserved 240.0.0.0/4", ["240.0.0.1", "254.255.255.254"]],
  ["broadcast", ["255.255.255.255"]],
  ["IPv6 unspecified and loopback", ["::", "::1"]],
  ["IPv4-compatible ::/96", ["::7f00:1", "::127.0.0.1", "::a9fe:a9fe", "::808:808", "::8.8.8.8", "::1:2"]],
  ["IPv4-mapped ::ffff:0:0/96 of a non-public IPv4", ["::ffff:127.0.0.1", "::ffff:a00:1", "::ffff:a9fe:a9fe", "::ffff:0.0.0.0"]],
  ["IPv4-translated ::ffff:0:0:0/96", ["::ffff:0:7f00:1", "::ffff:0:808:808"]],
  ["NAT64 64:ff9b::/96", ["64:ff9b::7f00:1", "64:ff9b::a00:1", "64:ff9b::808:808"]],
  ["local NAT64 64:ff9b:1::/48", ["64:ff9b:1::a00:1", "64:ff9b:1:ffff::1"]],
  ["6to4 2002::/16", ["2002:7f00:1::1", "2002:a9fe:a9fe::1", "2002:a00:1::", "2002:808:808::1"]],
  ["Teredo 2001::/32", ["2001::1", "2001:0:4136:e378:8000:63bf:3fff:fdd2"]],
  ["IPv6 link-local fe80::/10", ["fe80::1", "fe80::1%eth0", "febf:ffff::1"]],
  ["IPv6 site-local fec0::/10", ["fec0::1"]],
  ["unique-local fc00::/7", ["fc00::1", "fd00:ec2::254", "fdff:ffff::1"]],
  ["IPv6 multicast", ["ff02::1", "ff05::1:3", "ff0e::1"]],
  ["IPv6 documentation", ["2001:db8::1", "2001:db8:ffff::1", "3fff::1"]],
  ["IPv6 benchmarking 2001:2::/48", ["2001:2::1"]],
  ["discard-only 100::/64", ["100::1"]],
  ["outside global unicast 2000::/3", ["4000::1", "5f00::1", "8000::1", "e000::1"]],
];

const publicAddresses = ["8.8.8.8", "1.1.1.1", "93.184.216.34", "2606:4700::1111", "2a00:1450:4001:80b::200e", "::ffff:8.8.8.8"];

const table = refused.flatMap(([range, addresses]) => addresses.map((address) => ({ range, address })));
const family = (address: string) => (net.isIP(address.split("%")[0]!) === 4 ? 4 : 6);
const literal = (address: string) => (family(address) === 4 ? address : `[${address.split("%")[0]}]`);
const resolvingTo = (address: string) => async () => [{ address, family: family(address) }];

describe("special-purpose address ranges", () => {
  afterEach(() => vi.restoreAllMocks());

  it.each(table)("refuses $address ($range) when the URL is set", ({ address }) => {
    expect(addressRefusal(address)).toMatch(/is not a public address/);
    // A zone id cannot be written in a URL: its address alone is what a URL can name.
    const url = `https://${literal(address)}/hooks`;
    expect(() => validateWebhookUrl(url, { allowPrivate: false })).toThrow(ValidationError);
  });

  it.each(table)("refuses $address ($range) at delivery, without connecting", async ({ address }) => {
    const connect = vi.spyOn(net.Socket.prototype, "connect").mockImplementation(() => {
      throw new Error("tripwire: a refused address was connected to");
    });
    const resolve = resolvingTo(address);
    await expect(checkWebhookTarget("https://hooks.example/in", { allowPrivate: false, resolve })).rejects.toBeInstanceOf(
      WebhookTargetRefusedError,
    );
    await expect(
      checkWebhookTarget(`https://${literal(address)}/in`, { allowPrivate: false, resolve }),
    ).rejects.toBeInstanceOf(WebhookTargetRefusedError);
    const result = await sendWebhook({ url: "https://hooks.example/in", body: "{}", headers: {}, timeoutMs: 1000, allowPrivate: false, resolve });
    expect(result).toMatchObject({ ok: false, refused: true, statusCode: null });
    expect(connect).not.toHaveBeenCalled();
  });

  it.each(publicAddresses)("accepts the public address %s at both", async (address) => {
    expect(addressRefusal(address)).toBeNull();
    expect(validateWebhookUrl(`https://${literal(address)}/hooks`, { allowPrivate: false })).toMatch(/^https:/);
    const target = await checkWebhookTarget("https://hooks.example/in", { allowPrivate: false, resolve: resolvingTo(address) });
    expect(target.addresses).toEqual([{ address, family: family(address) }]);
  });
});
