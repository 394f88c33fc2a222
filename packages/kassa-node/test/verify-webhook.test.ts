import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { randomToken } from "@/lib/ids";
import { signatureHeaders } from "@/lib/webhooks/sign-webhook";
import { verifyWebhook, WebhookVerificationError, type WebhookVerificationErrorCode } from "../src";

// Deliveries are signed here by Kassa's own signing code (lib/webhooks/sign-webhook.ts), the code
// its webhook sender uses, so these tests fail if the client and the server disagree.

const token = () => `whsec_${randomToken(32)}`;

const body = JSON.stringify({
  amount: 2500,
  currency: "USD",
  metadata: { cart: "c-1", integration_session_id: "cs_01JF3Q6R1XKX2V7T9Y0ZB4C8DM" },
  type: "succeeded",
  provider: "stripe",
  order_id: "order-1001",
  items: [{ name: "T-shirt", quantity: 1, price: 2500 }],
  customer: { name: "Zoë Ünal" }, // non-ASCII: the signatures cover UTF-8 bytes
});

function delivery(tokens: [string, ...string[]], at = new Date(), payload = body) {
  return { body: payload, headers: signatureHeaders(tokens, "evt_01JF3Q6R1XKX2V7T9Y0ZB4C8DM", payload, at) };
}

function refusal(run: () => unknown): WebhookVerificationErrorCode {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return (error as WebhookVerificationError).code;
  }
  throw new Error("verifyWebhook accepted the delivery");
}

describe("verifyWebhook", () => {
  it("accepts a delivery signed by Kassa and returns its parsed event", () => {
    const secret = token();
    const d = delivery([secret]);
    const event = verifyWebhook(d.body, d.headers, secret);
    expect(event).toEqual(JSON.parse(body));
    expect(event.type).toBe("succeeded");
    expect(event.metadata.integration_session_id).toBe("cs_01JF3Q6R1XKX2V7T9Y0ZB4C8DM");
  });

  it("takes the body as bytes, and headers as a Headers object or a record in any case", () => {
    const secret = token();
    const d = delivery([secret]);
    const bytes = new TextEncoder().encode(d.body);
    expect(verifyWebhook(Buffer.from(bytes), new Headers(d.headers), secret).order_id).toBe("order-1001");
    const shouted = Object.fromEntries(Object.entries(d.headers).map(([k, v]) => [k.toUpperCase(), v]));
    expect(verifyWebhook(bytes, shouted, secret).order_id).toBe("order-1001");
    // A Headers-like object that is not the global class (Next.js's headers()).
    const headersLike = { get: (name: string) => new Headers(d.headers).get(name) };
    expect(verifyWebhook(d.body, headersLike, secret).order_id).toBe("order-1001");
    // Node's req.headers: lowercase names, possibly arrays.
    const node = Object.fromEntries(Object.entries(d.headers).map(([k, v]) => [k.toLowerCase(), [v]]));
    expect(verifyWebhook(d.body, node, secret).order_id).toBe("order-1001");
  });

  it("refuses a tampered body, whitespace included", () => {
    const secret = token();
    const d = delivery([secret]);
    expect(refusal(() => verifyWebhook(d.body.replace("2500", "2"), d.headers, secret))).toBe(
      "signature_mismatch",
    );
    expect(refusal(() => verifyWebhook(`${d.body} `, d.headers, secret))).toBe("signature_mismatch");
    // Re-serialised JSON is other bytes: verify the raw body, parse afterwards.
    expect(refusal(() => verifyWebhook(JSON.stringify(JSON.parse(d.body), null, 2), d.headers, secret))).toBe(
      "signature_mismatch",
    );
  });

  it("refuses another business's token", () => {
    const d = delivery([token()]);
    expect(refusal(() => verifyWebhook(d.body, d.headers, token()))).toBe("signature_mismatch");
  });

  it("refuses a valid Signature paired with a wrong webhook-signature, and the reverse", () => {
    const secret = token();
    const d = delivery([secret]);
    const other = delivery([token()]);
    expect(
      refusal(() =>
        verifyWebhook(
          d.body,
          { ...d.headers, "webhook-signature": other.headers["webhook-signature"]! },
          secret,
        ),
      ),
    ).toBe("signature_mismatch");
    expect(
      refusal(() => verifyWebhook(d.body, { ...d.headers, Signature: other.headers.Signature! }, secret)),
    ).toBe("signature_mismatch");
    // The Standard Webhooks signature covers the id and the timestamp too.
    expect(refusal(() => verifyWebhook(d.body, { ...d.headers, "webhook-id": "evt_other" }, secret))).toBe(
      "signature_mismatch",
    );
  });

  it("refuses timestamps more than 5 minutes old or ahead, and honours another tolerance", () => {
    const secret = token();
    const minutes = (n: number) => new Date(Date.now() + n * 60_000);
    const fourMinutesOld = delivery([secret], minutes(-4));
    expect(verifyWebhook(fourMinutesOld.body, fourMinutesOld.headers, secret).type).toBe("succeeded");
    const old = delivery([secret], minutes(-6));
    expect(refusal(() => verifyWebhook(old.body, old.headers, secret))).toBe("timestamp_too_old");
    const future = delivery([secret], minutes(6));
    expect(refusal(() => verifyWebhook(future.body, future.headers, secret))).toBe("timestamp_too_new");
    expect(verifyWebhook(old.body, old.headers, secret, { toleranceSeconds: 600 }).type).toBe("succeeded");
    const recent = delivery([secret], minutes(-1));
    expect(refusal(() => verifyWebhook(recent.body, recent.headers, secret, { toleranceSeconds: 30 }))).toBe(
      "timestamp_too_old",
    );
    // A stored delivery checked against the time it arrived.
    expect(verifyWebhook(old.body, old.headers, secret, { now: minutes(-6) }).type).toBe("succeeded");
    expect(
      refusal(() => verifyWebhook(old.body, { ...old.headers, "webhook-timestamp": "soon" }, secret)),
    ).toBe("invalid_timestamp");
  });

  it("refuses a delivery missing any of the four headers", () => {
    const secret = token();
    const d = delivery([secret]);
    for (const name of ["Signature", "webhook-id", "webhook-timestamp", "webhook-signature"]) {
      const headers = Object.fromEntries(Object.entries(d.headers).filter(([k]) => k !== name));
      expect(
        refusal(() => verifyWebhook(d.body, headers, secret)),
        name,
      ).toBe("missing_header");
    }
    expect(refusal(() => verifyWebhook(d.body, {}, secret))).toBe("missing_header");
  });

  it("during a token rotation, accepts the new token alone, or both tokens; the old one alone fails Signature", () => {
    const [current, previous] = [token(), token()];
    const d = delivery([current, previous]);
    expect(verifyWebhook(d.body, d.headers, current).type).toBe("succeeded");
    expect(verifyWebhook(d.body, d.headers, [previous, current]).type).toBe("succeeded");
    // Signature uses the new token only (docs/webhooks.md, "Rotating the token").
    expect(refusal(() => verifyWebhook(d.body, d.headers, previous))).toBe("signature_mismatch");
  });

  it("refuses a signed body that is not a Kassa event", () => {
    const secret = token();
    for (const payload of ["not json", "[1,2]", '{"amount":1}']) {
      const d = delivery([secret], new Date(), payload);
      expect(
        refusal(() => verifyWebhook(d.body, d.headers, secret)),
        payload,
      ).toBe("invalid_body");
    }
  });

  it("agrees with the official standardwebhooks package both ways", () => {
    const secret = token();
    const d = delivery([secret]);
    // Kassa's delivery, verified by the official library.
    const standard = new Webhook(secret).verify(d.body, {
      "webhook-id": d.headers["webhook-id"]!,
      "webhook-timestamp": d.headers["webhook-timestamp"]!,
      "webhook-signature": d.headers["webhook-signature"]!,
    });
    expect(standard).toEqual(verifyWebhook(d.body, d.headers, secret));
    // The official library's signature, accepted by verifyWebhook (its own Signature kept).
    const at = new Date();
    const signed = new Webhook(secret).sign("evt_lib", at, d.body);
    const headers = {
      ...d.headers,
      "webhook-id": "evt_lib",
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": signed,
    };
    expect(verifyWebhook(d.body, headers, secret).type).toBe("succeeded");
    // And a tampered body is refused by both.
    expect(() => new Webhook(secret).verify(`${d.body} `, headers)).toThrow();
    expect(refusal(() => verifyWebhook(`${d.body} `, headers, secret))).toBe("signature_mismatch");
  });
});
