import { describe, expect, it } from "vitest";
import { withAbsolutePaths } from "./backup-advice";

describe("withAbsolutePaths", () => {
  it("makes backup's --out and restore's --from absolute from the CLI's directory, in both spellings", () => {
    expect(withAbsolutePaths(["backup", "--out", "b.tgz", "--json"], "/home/op")).toEqual([
      "backup",
      "--out",
      "/home/op/b.tgz",
      "--json",
    ]);
    expect(withAbsolutePaths(["restore", "--from=../b.tgz"], "/home/op")).toEqual([
      "restore",
      "--from=/home/b.tgz",
    ]);
    expect(withAbsolutePaths(["backup", "--out", "/srv/b.tgz"], "/home/op")).toEqual([
      "backup",
      "--out",
      "/srv/b.tgz",
    ]);
  });

  it("leaves other commands, other options and a missing value alone", () => {
    const create = ["business", "create", "--name", "out", "--out", "x"];
    expect(withAbsolutePaths(create, "/home/op")).toEqual(create);
    expect(withAbsolutePaths(["restore", "--key-file", "k", "--from", "--json"], "/h")).toEqual([
      "restore",
      "--key-file",
      "k",
      "--from",
      "--json",
    ]);
  });
});
