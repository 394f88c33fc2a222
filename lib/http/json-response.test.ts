import { describe, expect, it } from "vitest";
import { JsonResponse } from "./json-response";
import { json, unreadJsonText } from "./respond";

const text = JSON.stringify({ id: "pay_1", amount: 1250 });

describe("JsonResponse", () => {
  it("is a Response with its status, headers and text, unread", () => {
    const response = json(201, { id: "pay_1", amount: 1250 }, { "idempotent-replayed": "true" });
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(201);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("idempotent-replayed")).toBe("true");
    expect(response.bodyUsed).toBe(false);
    expect(unreadJsonText(response)).toBe(text);
  });

  it("reads as any Response does, once", async () => {
    const response = new JsonResponse(text, { status: 200 });
    await expect(response.json()).resolves.toEqual({ id: "pay_1", amount: 1250 });
    expect(response.bodyUsed).toBe(true);
    expect(unreadJsonText(response)).toBeUndefined();
    await expect(response.text()).rejects.toThrow(TypeError);
    expect(() => response.clone()).toThrow(TypeError);
  });

  it("gives its body as a stream, as Next's route handling takes it", async () => {
    const response = new JsonResponse(text, { status: 402, headers: { "x-a": "1" } });
    const copy = new Response(response.body, response);
    expect(copy.status).toBe(402);
    expect(copy.headers.get("x-a")).toBe("1");
    await expect(copy.text()).resolves.toBe(text);
    expect(response.bodyUsed).toBe(true);
  });

  it("reads as text, bytes and a buffer", async () => {
    await expect(new JsonResponse(text, {}).text()).resolves.toBe(text);
    expect(new TextDecoder().decode(await new JsonResponse(text, {}).bytes())).toBe(text);
    expect(new TextDecoder().decode(await new JsonResponse(text, {}).arrayBuffer())).toBe(text);
    await expect((await new JsonResponse(text, {}).blob()).text()).resolves.toBe(text);
  });

  it("clones into an independent copy with the same status, headers and text", async () => {
    const response = new JsonResponse(text, { status: 409, headers: { "x-a": "1" } });
    const clone = response.clone();
    await expect(clone.json()).resolves.toEqual({ id: "pay_1", amount: 1250 });
    expect(clone.status).toBe(409);
    expect(clone.headers.get("x-a")).toBe("1");
    expect(response.bodyUsed).toBe(false);
    await expect(response.text()).resolves.toBe(text);
  });

  it("is not another Response's text", () => {
    expect(unreadJsonText(new Response(text))).toBeUndefined();
  });
});
