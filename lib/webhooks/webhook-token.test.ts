import { describe, expect, it } from "vitest";
import { findBusiness } from "@/lib/businesses/create-business";
import { ValidationError } from "@/lib/errors";
import { createTestBusiness, testDb } from "@/test/helpers";
import { validateWebhookUrl } from "./validate-webhook-url";
import {
  maxRotationOverlapSeconds,
  revealWebhookToken,
  rotateWebhookToken,
  tokensSigningAt,
  webhookSigningTokens,
  webhookTokenHistory,
} from "./webhook-token";

describe("webhook token", () => {
  it("is generated per business, revealed, and rotated with an overlap window", async () => {
    const biz = await createTestBusiness();
    const other = await createTestBusiness();
    expect(biz.webhookToken).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    expect(biz.webhookToken).not.toBe(other.webhookToken);
    expect(await revealWebhookToken(testDb(), biz.business.id)).toBe(biz.webhookToken);
    expect(await webhookSigningTokens(testDb(), biz.business)).toEqual([biz.webhookToken]);

    const { token, previousValidUntil } = await rotateWebhookToken(testDb(), biz.business.id, {
      overlapSeconds: 600,
    });
    expect(token).toMatch(/^whsec_/);
    expect(token).not.toBe(biz.webhookToken);
    expect(await revealWebhookToken(testDb(), biz.business.id)).toBe(token);
    const rotated = (await findBusiness(testDb(), biz.business.id))!;
    expect(await webhookSigningTokens(testDb(), rotated)).toEqual([token, biz.webhookToken]);
    // After the window only the new token signs.
    expect(await webhookSigningTokens(testDb(), rotated, new Date(previousValidUntil.getTime() + 1))).toEqual(
      [token],
    );
    await expect(rotateWebhookToken(testDb(), "biz_missing")).rejects.toThrow(/No such business/);
  });
});

describe("tokensSigningAt (the attempt log's view of who signed)", () => {
  it("follows webhookSigningTokens after the latest rotation and refuses to guess before it", async () => {
    const biz = await createTestBusiness();
    const never = await webhookTokenHistory(testDb(), biz.business.id);
    expect(tokensSigningAt(never, new Date(0))).toEqual([biz.webhookToken]);

    const before = new Date();
    await new Promise((r) => setTimeout(r, 5));
    const { token, previousValidUntil } = await rotateWebhookToken(testDb(), biz.business.id, {
      overlapSeconds: 60,
    });
    const history = await webhookTokenHistory(testDb(), biz.business.id);
    const rotatedAt = history.rotation!.rotatedAt;
    expect(tokensSigningAt(history, before)).toBeNull();
    expect(tokensSigningAt(history, rotatedAt)).toBeNull(); // the same millisecond: not known for sure
    const inside = new Date(rotatedAt.getTime() + 1);
    expect(tokensSigningAt(history, inside)).toEqual([token, biz.webhookToken]);
    const rotated = (await findBusiness(testDb(), biz.business.id))!;
    expect(await webhookSigningTokens(testDb(), rotated, inside)).toEqual(tokensSigningAt(history, inside));
    expect(tokensSigningAt(history, previousValidUntil)).toEqual([token]);
  });

  it("bounds the overlap: 0 to 7 days, whole seconds", async () => {
    const biz = await createTestBusiness();
    for (const overlapSeconds of [-1, maxRotationOverlapSeconds + 1, 1.5, Number.NaN])
      await expect(rotateWebhookToken(testDb(), biz.business.id, { overlapSeconds })).rejects.toBeInstanceOf(
        ValidationError,
      );
    expect(await revealWebhookToken(testDb(), biz.business.id)).toBe(biz.webhookToken);
    const { previousValidUntil } = await rotateWebhookToken(testDb(), biz.business.id, { overlapSeconds: 0 });
    const rotated = (await findBusiness(testDb(), biz.business.id))!;
    expect(await webhookSigningTokens(testDb(), rotated, previousValidUntil)).toHaveLength(1);
  });
});

describe("validateWebhookUrl", () => {
  it("accepts public http(s) URLs and refuses the rest with a field error", () => {
    expect(validateWebhookUrl(" https://shop.example.com/hooks ", { allowPrivate: false })).toBe(
      "https://shop.example.com/hooks",
    );
    for (const url of [
      "ftp://shop.example.com/",
      "http://127.0.0.1/",
      "http://localhost:3000/",
      "http://[::1]/",
      "http://169.254.169.254/",
      "nope",
      "https://user:%E0%A4%A@shop.example.com/hooks",
      "https://%zz@shop.example.com/hooks",
    ]) {
      try {
        validateWebhookUrl(url, { allowPrivate: false });
        throw new Error(`accepted ${url}`);
      } catch (error) {
        expect(error, url).toBeInstanceOf(ValidationError);
        expect(Object.keys((error as ValidationError).fields)).toEqual(["webhook_url"]);
      }
    }
    expect(validateWebhookUrl("http://127.0.0.1:4000/hooks", { allowPrivate: true })).toBe(
      "http://127.0.0.1:4000/hooks",
    );
    expect(() => validateWebhookUrl("file:///etc/passwd", { allowPrivate: true })).toThrow(ValidationError);
    expect(validateWebhookUrl("https://us%20er:p%40ss@shop.example.com/", { allowPrivate: false })).toBe(
      "https://us%20er:p%40ss@shop.example.com/",
    );
  });
});
