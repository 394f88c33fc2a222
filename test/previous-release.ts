// Test support for server/rolling-upgrade.test.ts: the previous release's code in a directory of
// its own, runnable beside this checkout. The previous release is the tree just before the last
// commit that changed db/migrations (the release still running while the newest migration is
// applied), or KASSA_UPGRADE_FROM (a commit or a tag kept for the purpose).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export type PreviousRelease = {
  commit: string;
  dir: string;
  /** The migrations (tags) the previous release carries, and those only this checkout carries. */
  migrations: string[];
  added: string[];
  remove(): void;
};

const git = (root: string, ...args: string[]) =>
  execFileSync("git", ["-C", root, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();

/** The previous release's commit, or why there is none to run. */
export function previousReleaseCommit(root: string): { commit: string } | { skip: string } {
  try {
    git(root, "rev-parse", "--git-dir");
  } catch {
    return { skip: "not a git checkout: the previous release's code cannot be read" };
  }
  const from =
    process.env.KASSA_UPGRADE_FROM || `${git(root, "log", "-1", "--format=%H", "--", "db/migrations")}^`;
  let commit: string;
  try {
    commit = git(root, "rev-parse", "--verify", `${from}^{commit}`);
  } catch {
    return { skip: `the previous release ${from} is not in this clone's history (a shallow clone?)` };
  }
  try {
    git(root, "diff", "--quiet", commit, "HEAD", "--", "package-lock.json");
  } catch {
    return {
      skip: `package-lock.json changed since the previous release ${commit.slice(0, 8)}: its dependencies are not this checkout's node_modules`,
    };
  }
  return { commit };
}

function migrationTags(migrationsDir: string): string[] {
  return fs
    .readdirSync(migrationsDir)
    .filter((name) => name.endsWith(".sql"))
    .map((name) => name.slice(0, -4))
    .sort();
}

/**
 * `node_modules` for the previous release: a link to each of this checkout's packages, except the
 * workspace packages (relative links into `packages/`), which stay relative, so the previous
 * release runs its own Stripe emulator. Nor is `.cache` shared: the previous release bundles its
 * own sources into its own (bin/bundle.mjs).
 */
function linkNodeModules(from: string, to: string): void {
  fs.mkdirSync(to);
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    if (entry.name === ".cache") continue; // bundles and caches of this checkout's own sources
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isSymbolicLink() && !path.isAbsolute(fs.readlinkSync(source)))
      fs.symlinkSync(fs.readlinkSync(source), target);
    else if (entry.isDirectory() && entry.name.startsWith("@")) linkNodeModules(source, target);
    else fs.symlinkSync(source, target);
  }
}

/** Writes the previous release's tree (`git archive`) to a temporary directory, ready to run. */
export function checkoutPreviousRelease(root: string, commit: string): PreviousRelease {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-previous-"));
  const archive = path.join(dir, "release.tar");
  git(root, "archive", "--format=tar", "-o", archive, commit);
  execFileSync("tar", ["-x", "-f", archive, "-C", dir]);
  fs.rmSync(archive);
  linkNodeModules(fs.realpathSync(path.join(root, "node_modules")), path.join(dir, "node_modules"));
  const migrations = migrationTags(path.join(dir, "db", "migrations"));
  const added = migrationTags(path.join(root, "db", "migrations")).filter((tag) => !migrations.includes(tag));
  return { commit, dir, migrations, added, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
