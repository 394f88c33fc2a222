import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { dataDir } from "@/lib/env";

// sun_path holds 104 bytes on macOS and 108 on Linux, the final NUL included.
const maxSocketPath = 100;

/**
 * Where the server listens for CLI commands: a socket in a directory only this user can enter, in
 * DATA_DIR, or under the temp directory when DATA_DIR's path is too long for a socket. The
 * directory, not the socket's own mode, is what keeps other users out: it is private before the
 * socket exists.
 */
export function commandSocketPath(): string {
  return privateSocketPath("kassa.sock");
}

/** A socket named `name` in that private directory (DATA_DIR/run, or the temp one when too long). */
export function privateSocketPath(name: string): string {
  let dir = path.join(dataDir(), "run");
  if (Buffer.byteLength(path.join(dir, name)) > maxSocketPath) {
    const digest = createHash("sha256").update(dataDir()).digest("hex").slice(0, 12);
    dir = path.join(os.tmpdir(), `kassa-${process.getuid?.() ?? "u"}-${digest}`);
  }
  privateDirectory(dir);
  return path.join(dir, name);
}

function privateDirectory(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // In a shared temp directory someone else may have made it first, or planted a link.
  const stat = fs.lstatSync(dir);
  if (!stat.isDirectory() || (process.getuid && stat.uid !== process.getuid()))
    throw new Error(`${dir} is not a directory owned by this user: refusing to put Kassa's command socket there.`);
  if ((stat.mode & 0o077) !== 0) fs.chmodSync(dir, 0o700);
}
