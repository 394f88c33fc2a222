import { describe, expect, it } from "vitest";
import { databaseFault } from "./db-errors";

const withCode = (code: string, message = "boom") => Object.assign(new Error(message), { code });

describe("databaseFault", () => {
  it("classes the database's own failures, looking through causes", () => {
    for (const code of [
      "ECONNREFUSED",
      "ECONNRESET",
      "CONNECTION_ENDED",
      "CONNECTION_CLOSED",
      "CONNECT_TIMEOUT",
      "57P01",
      "57P02",
      "57P03",
      "08006",
      "08001",
      "53300",
    ])
      expect(databaseFault(withCode(code)), code).toBe("unavailable");
    expect(databaseFault(withCode("57014"))).toBe("timeout");
    expect(databaseFault(withCode("25006"))).toBe("read_only");
    expect(databaseFault(withCode("53100"))).toBe("disk_full");
    expect(databaseFault(Object.assign(new Error("write failed"), { errno: 28 }))).toBe("disk_full");
    expect(databaseFault(new Error("could not extend file: No space left on device"))).toBe("disk_full");
    expect(databaseFault(new Error("Failed query", { cause: withCode("57P01") }))).toBe("unavailable");
  });

  it("leaves every other failure alone: a constraint, a bug, a serialization failure", () => {
    for (const error of [
      withCode("23505"),
      withCode("40001"),
      withCode("22P02"),
      new TypeError("x is undefined"),
      null,
      "text",
    ])
      expect(databaseFault(error)).toBeNull();
  });
});
