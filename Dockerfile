# Kassa's container image (docs/deploy.md, "Containers"). Builds with Docker and Podman:
#   docker build -t kassa .        podman build -t kassa .
# NODE_IMAGE: the base of both stages, the official Node 20 LTS image on Debian bookworm, slim.
ARG NODE_IMAGE=node:20-bookworm-slim

# ---- build: every dependency, `next build`, the server and CLI compiled to JavaScript ----------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# The build's own type check is skipped (CI type-checks the tree; it costs ~30 s of 2 cores), and
# Next writes no Turbopack cache the image would carry.
ENV NEXT_TELEMETRY_DISABLED=1 KASSA_BUILD_TYPECHECK=0 KASSA_BUILD_CACHE=0 CI=true
# The manifests first: the dependency layer is reused while the lock file stays the same.
COPY package.json package-lock.json ./
COPY patches ./patches
COPY packages ./packages
# A machine behind a TLS-inspecting proxy passes its CA bundle as a build secret, used by this step
# only and never stored in a layer: `--secret id=build_ca,src=/etc/ssl/certs/ca-certificates.crt`.
RUN --mount=type=secret,id=build_ca,target=/run/secrets/build_ca \
    if [ -s /run/secrets/build_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/build_ca; fi \
 && npm ci --no-audit --no-fund
COPY . .
# `npm run build` ends by compiling the server, the CLI and `db:migrate` with esbuild into
# dist/server (bin/compile.mjs, decision 0076): the container starts them with plain `node`, no
# TypeScript loader writing a cache. Then only what runs is kept: the files the compiled entries
# and Next's own traces reach, and the trees read by path (scripts/container/runtime-files.mjs).
RUN npm run build && node scripts/container/runtime-files.mjs /runtime

# ---- the image: what production runs, owned by root, read-only to the `node` user --------------
FROM ${NODE_IMAGE}
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000 HOST=0.0.0.0 DATA_DIR=/data
# What runs, traced from the build (no dev dependency, no SWC compiler, no test browser).
COPY --from=build /runtime ./
COPY scripts/container/kassa /usr/local/bin/kassa
# BUILD_ID touched last: COPY gives directories the time of the copy, and server/build.ts rebuilds
# (on a read-only filesystem: fails) when a source directory is newer than the build.
RUN mkdir -p /data && chown node:node /data && chmod 0755 /usr/local/bin/kassa && touch /app/.next/BUILD_ID
USER node
VOLUME /data
EXPOSE 3000
# Readiness (docs/deploy.md, "Health checks"): database reachable, migrations applied, work running;
# 503 from the moment a SIGTERM arrives. No curl in the image: Node's fetch.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/api/health/ready`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM drains (readiness 503 for SHUTDOWN_DELAY_SECONDS, requests finish, jobs released):
# give it 50 s before a SIGKILL (`docker stop -t 50`; compose.yaml: stop_grace_period).
STOPSIGNAL SIGTERM
CMD ["node", "dist/server/main.mjs"]
