import { describe, expect, it } from "vitest";
import { checkResponseAgainstDocument } from "./openapi-responses";

const json = "application/json; charset=utf-8";

describe("checking responses against the OpenAPI document", () => {
  it("accepts a documented status whose body matches its schema", () => {
    expect(() =>
      checkResponseAgainstDocument("GET", "/openapi.json", 200, json, {
        openapi: "3.1.0",
        info: { version: "1.0.0" },
      }),
    ).not.toThrow();
    expect(() =>
      checkResponseAgainstDocument("GET", "/openapi.json", 500, json, { error: "Internal server error" }),
    ).not.toThrow();
  });

  it("refuses a status the document does not list for the route", () => {
    expect(() => checkResponseAgainstDocument("GET", "/openapi.json", 418, json, {})).toThrow(
      /GET \/openapi\.json answered 418, which the document does not list \(documented: 200, 500, 503\)/,
    );
  });

  it("refuses a body that does not match, naming what differs", () => {
    expect(() =>
      checkResponseAgainstDocument("GET", "/openapi.json", 200, json, {
        openapi: "3.0.0",
        info: { version: "1" },
      }),
    ).toThrow(/body does not match the document:[\s\S]*openapi/);
    expect(() => checkResponseAgainstDocument("GET", "/openapi.json", 500, json, { error: "boom" })).toThrow(
      /500 body does not match/,
    );
  });

  it("checks the routes' own schemas, following their references", () => {
    expect(() =>
      checkResponseAgainstDocument("GET", "/payment/cs_123", 200, json, { session_id: "cs_123" }),
    ).toThrow(
      /GET \/payment\/\{session_id\} 200 body does not match[\s\S]*must have required property 'status'/,
    );
    expect(() =>
      checkResponseAgainstDocument("GET", "/payment/cs_123", 404, json, { error: "Payment not found" }),
    ).not.toThrow();
    expect(() =>
      checkResponseAgainstDocument("GET", "/payment/cs_123", 404, json, {
        error: "payment_not_found",
        message: "x",
      }),
    ).toThrow(/404 body does not match/);
    expect(() =>
      checkResponseAgainstDocument("GET", "/balance", 200, json, { balance: 1, payout_balance: 2, extra: 3 }),
    ).toThrow(/must NOT have additional properties/);
  });

  it("refuses a content type the document does not list", () => {
    expect(() => checkResponseAgainstDocument("GET", "/openapi.json", 200, "text/html", "<html>")).toThrow(
      /answered text\/html; the document lists application\/json/,
    );
  });

  it("skips what the router itself answers (unknown path or method)", () => {
    expect(() => checkResponseAgainstDocument("GET", "/no-such-endpoint", 404, json, {})).not.toThrow();
    expect(() => checkResponseAgainstDocument("DELETE", "/openapi.json", 405, json, {})).not.toThrow();
  });
});
