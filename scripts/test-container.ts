// npm run test:container: the container image, end to end, with Podman (docs/deploy.md,
// "Containers"). Makes (or reuses) the stand-in base image, builds the Dockerfile, runs it
// read-only on a volume against the local PostgreSQL, creates a business with the in-image CLI,
// pays a sandbox session through the API, puts a load on it held to 512 MB, stops the container (a clean exit within the drain
// time), starts a new one on the same volume and finds the payment. Exits non-zero on any failure.
import { execFileSync, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../test/free-port";
import { fileURLToPath } from "node:url";
import postgres from "postgres";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const image = process.env.KASSA_TEST_IMAGE ?? "localhost/kassa:test";
/** What this machine's Podman needs on every build and run (crun fails on its cgroups; limits cannot be raised). */
const podmanFlags = ["--runtime", "runc", "--ulimit", "nofile=1024:1024", "--ulimit", "nproc=1024:1024"];
const caBundle = "/etc/ssl/certs/ca-certificates.crt";
/** `podman stop`'s grace period; the drain (SHUTDOWN_DELAY_SECONDS=1 here) takes far less when idle. */
const stopSeconds = 50;
const id = `${Date.now().toString(36)}${crypto.randomBytes(3).toString("hex")}`;
const started = Date.now();
const timings: [string, number][] = [];

/** Runs `podman args`, returns its stdout (trimmed); throws with its stderr on failure. */
function podman(args: string[], options: { input?: string; inherit?: boolean } = {}): string {
  const result = spawnSync("podman", args, {
    encoding: "utf8",
    input: options.input,
    stdio: options.inherit ? ["ignore", "inherit", "inherit"] : "pipe",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0)
    throw new Error(`podman ${args.join(" ")} failed (${result.status}): ${result.stderr ?? ""}`);
  return (result.stdout ?? "").trim();
}

/** Records how long a step took. */
async function timed<T>(name: string, step: () => T | Promise<T>): Promise<T> {
  const at = Date.now();
  console.log(`\n--- ${name}`);
  const value = await step();
  timings.push([name, (Date.now() - at) / 1000]);
  return value;
}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`test-container: ${message}`);
}

/** The stand-in for node:20-bookworm-slim (scripts/container/base-image.sh), made once and cached. */
function baseImage(): string {
  if (process.env.KASSA_NODE_IMAGE) return process.env.KASSA_NODE_IMAGE;
  const out = execFileSync(path.join(root, "scripts", "container", "base-image.sh"), {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  return out.trim().split("\n").at(-1)!;
}

/** Builds the Dockerfile; the machine's CA bundle goes in as a build secret (a TLS-inspecting proxy). */
function buildImage(base: string): void {
  const secret = fs.existsSync(caBundle) ? ["--secret", `id=build_ca,src=${caBundle}`] : [];
  podman(
    [
      "build",
      ...podmanFlags,
      "--format",
      "docker",
      ...secret,
      "--build-arg",
      `NODE_IMAGE=${base}`,
      "-t",
      image,
      root,
    ],
    {
      inherit: true,
    },
  );
}

/**
 * KASSA_TEST_PREBUILT=1: the image from this checkout's own build (`npm run build` made it; CI's
 * Playwright step did): the same runtime files (scripts/container/runtime-files.mjs) put into the
 * Dockerfile's last stage, taken from the Dockerfile itself, so the image is what the two-stage
 * build makes without repeating `npm ci` and `next build` inside a container (about 30 minutes on
 * CI's two cores). The Dockerfile's first stage is then not what is tested.
 */
function buildPrebuiltImage(base: string): void {
  const context = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-image-"));
  try {
    execFileSync(process.execPath, [path.join(root, "scripts/container/runtime-files.mjs"), path.join(context, "runtime")], {
      cwd: root,
      stdio: "inherit",
    });
    fs.mkdirSync(path.join(context, "scripts/container"), { recursive: true });
    fs.copyFileSync(path.join(root, "scripts/container/kassa"), path.join(context, "scripts/container/kassa"));
    const dockerfile = fs.readFileSync(path.join(root, "Dockerfile"), "utf8");
    const last = dockerfile.slice(dockerfile.lastIndexOf("\nFROM ") + 1);
    check(last.includes("COPY --from=build /runtime ./"), "the Dockerfile's last stage no longer copies /runtime");
    const stage = `ARG NODE_IMAGE\n${last.replace("COPY --from=build /runtime ./", "COPY runtime ./")}`;
    fs.writeFileSync(path.join(context, "Dockerfile"), stage);
    podman(["build", ...podmanFlags, "--format", "docker", "--build-arg", `NODE_IMAGE=${base}`, "-t", image, context], {
      inherit: true,
    });
  } finally {
    fs.rmSync(context, { recursive: true, force: true });
  }
}

/** A fresh database on the local PostgreSQL (DATABASE_URL's server, or root@127.0.0.1:5432). */
async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = new URL(process.env.DATABASE_URL ?? "postgres://root@127.0.0.1:5432/postgres");
  const name = `kassa_container_${id}`;
  const sql = postgres(admin.href, { max: 1, onnotice: () => {} });
  await sql.unsafe(`create database ${name}`);
  const url = new URL(admin.href);
  url.pathname = `/${name}`;
  // The container reaches it through the host's network: 127.0.0.1 is the same address there.
  return {
    url: url.href,
    drop: async () => {
      await sql.unsafe(`drop database if exists ${name} with (force)`);
      await sql.end();
    },
  };
}

/** The memory the first container gets (issue 43: the bench's load within 512 MB, no restart). */
const memoryLimit = process.env.KASSA_TEST_MEMORY ?? "512m";

/** Starts the image read-only, /data on `volume`, /tmp a tmpfs, on the host's network. */
function runContainer(name: string, volume: string, databaseUrl: string, port: number, limits: string[] = []): void {
  podman([
    "run",
    "-d",
    ...podmanFlags,
    ...limits,
    "--name",
    name,
    "--read-only",
    "--tmpfs",
    "/tmp",
    "-v",
    `${volume}:/data`,
    "--network",
    "host",
    "-e",
    `DATABASE_URL=${databaseUrl}`,
    "-e",
    `PORT=${port}`,
    "-e",
    "SHUTDOWN_DELAY_SECONDS=1",
    "-e",
    "LOG_LEVEL=warn",
    image,
  ]);
}

/** Waits (generously: a busy machine) for readiness, 200 from /api/health/ready. */
async function waitReady(name: string, port: number, timeoutMs = 240_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const status = await fetch(`http://127.0.0.1:${port}/api/health/ready`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    if (podman(["inspect", "-f", "{{.State.Running}}", name]) !== "true") break;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`test-container: ${name} never became ready; its log:\n${podman(["logs", name])}`);
}

type Business = { id: string; secret_key: string; mode: string };

/** `kassa business create` inside the container, on its PATH. */
function createBusiness(name: string): Business {
  const out = podman(["exec", name, "kassa", "business", "create", "--name", "Container test", "--json"]);
  const business = JSON.parse(out) as Business;
  check(
    business.id && business.secret_key?.startsWith("sk_test_") && business.mode === "sandbox",
    `unexpected business: ${out}`,
  );
  return business;
}

async function api(
  port: number,
  key: string,
  method: string,
  route: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`http://127.0.0.1:${port}/api${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/** A session, paid with the sandbox helper and Stripe's test card that succeeds. */
async function paySession(port: number, business: Business): Promise<string> {
  const created = await api(port, business.secret_key, "POST", "/session", {
    amount: 2500,
    currency: "USD",
    customer: "cus_container",
    order_id: `order-${id}`,
    items: [{ name: "T-shirt", quantity: 1, price: 2500 }],
  });
  check(created.status === 201, `session: ${created.status} ${JSON.stringify(created.json)}`);
  const sessionId = created.json.session_id as string;
  const paid = await api(port, business.secret_key, "POST", `/sandbox/sessions/${sessionId}/pay`, {
    card_number: "4242424242424242",
  });
  check(
    paid.status === 200 && paid.json.status === "succeeded",
    `pay: ${paid.status} ${JSON.stringify(paid.json)}`,
  );
  return sessionId;
}

const loadCount = 120;
const loadConcurrency = 12;

/**
 * The load: `count` sessions created, their hosted checkout page rendered and paid, `concurrency`
 * at a time, every step checked. Answers the sessions per second it kept up.
 */
async function runLoad(port: number, business: Business, tag: string, count = loadCount, concurrency = loadConcurrency): Promise<number> {
  const began = performance.now();
  let next = 0;
  const failures: string[] = [];
  const worker = async () => {
    while (next < count) {
      const n = next++;
      const created = await api(port, business.secret_key, "POST", "/session", {
        amount: 1000 + n,
        currency: "USD",
        customer: "cus_container_load",
        order_id: `load-${id}-${tag}-${n}`,
        items: [{ name: "Load", quantity: 1, price: 1000 + n }],
      });
      if (created.status !== 201) {
        failures.push(`session ${created.status}`);
        continue;
      }
      const sessionId = created.json.session_id as string;
      const page = await fetch(`http://127.0.0.1:${port}/checkout/${sessionId}`);
      await page.arrayBuffer();
      if (page.status !== 200) failures.push(`checkout page ${page.status}`);
      const paid = await api(port, business.secret_key, "POST", `/sandbox/sessions/${sessionId}/pay`, {});
      if (paid.status !== 200) failures.push(`pay ${paid.status}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  check(failures.length === 0, `under load: ${failures.slice(0, 5).join(", ")}`);
  return count / ((performance.now() - began) / 1000);
}

/**
 * The load on the container held to `memoryLimit`. Then the container must still run, never
 * OOM-killed; its peak (the memory cgroup's max usage) and throughput are printed.
 */
async function loadWithinMemory(name: string, port: number, business: Business): Promise<number> {
  const perSecond = await runLoad(port, business, "limited");
  const state = podman(["inspect", "-f", "{{.State.Running}} {{.State.OOMKilled}} {{.RestartCount}}", name]);
  check(state === "true false 0", `under ${memoryLimit}: running, OOM-killed, restarts = ${state}; its log:\n${podman(["logs", name])}`);
  const full = podman(["inspect", "-f", "{{.Id}}", name]);
  const cgroup = ["/sys/fs/cgroup/memory/libpod_parent", "/sys/fs/cgroup/memory/machine.slice"]
    .map((dir) => path.join(dir, `libpod-${full}`))
    .find((dir) => fs.existsSync(dir));
  const peak = cgroup ? Number(fs.readFileSync(path.join(cgroup, "memory.max_usage_in_bytes"), "utf8")) : NaN;
  console.log(
    `${loadCount} sessions created, rendered and paid, ${loadConcurrency} at a time, within --memory ${memoryLimit}: ` +
      `${perSecond.toFixed(1)} sessions/s, ` +
      (Number.isFinite(peak) ? `peak ${Math.round(peak / 2 ** 20)} MiB (the memory cgroup's max usage, page cache included)` : "peak not readable here"),
  );
  return perSecond;
}

/** What a careful image promises: not root, nothing writable but /data and /tmp, the health check passes. */
function checkConfinement(name: string): void {
  check(podman(["exec", name, "id", "-u"]) !== "0", "the server runs as root");
  const write = spawnSync("podman", ["exec", name, "sh", "-c", "touch /app/written"], { encoding: "utf8" });
  check(write.status !== 0, "the image's /app is writable");
  podman(["healthcheck", "run", name]);
}

/** SIGTERM, then the exit: 0, well within the grace period. */
function stopCleanly(name: string): number {
  const at = Date.now();
  podman(["stop", "-t", String(stopSeconds), name]);
  const seconds = (Date.now() - at) / 1000;
  const code = podman(["inspect", "-f", "{{.State.ExitCode}}", name]);
  check(code === "0", `${name} exited with ${code}; its log:\n${podman(["logs", name])}`);
  check(seconds < stopSeconds - 5, `${name} took ${seconds}s to stop (killed at the grace period?)`);
  return seconds;
}

/** The compose tools that check a file without a daemon (podman-compose 1.0, Debian 12's, has no `config`). */
const composeTools = [["docker", "compose"], ["docker-compose"]];

/**
 * compose.yaml checked (`config`) by the first tool here that has the command, with an .env made
 * from .env.example; the tool's name, or null when none is installed.
 */
function checkCompose(): string | null {
  const dir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? "/tmp", "kassa-compose-"));
  try {
    fs.copyFileSync(path.join(root, "compose.yaml"), path.join(dir, "compose.yaml"));
    const example = fs.readFileSync(path.join(root, ".env.example"), "utf8");
    const filled = example.replace(
      /^(POSTGRES_PASSWORD|ENCRYPTION_KEY)=$/gm,
      (_, name: string) => `${name}=${crypto.randomBytes(32).toString("hex")}`,
    );
    fs.writeFileSync(path.join(dir, ".env"), filled);
    for (const [command, ...args] of composeTools) {
      // `docker compose version` says "Docker Compose version …"; a `docker` without it does not.
      const probe = spawnSync(command!, [...args, "version"], { encoding: "utf8" });
      if (probe.status !== 0 || !/compose/i.test(probe.stdout)) continue;
      const result = spawnSync(command!, [...args, "config", "-q"], { cwd: dir, encoding: "utf8" });
      check(
        result.status === 0,
        `compose.yaml is invalid (${[command, ...args].join(" ")} config): ${result.stderr}${result.stdout}`,
      );
      return [command, ...args].join(" ");
    }
    return null;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function imageSizeMb(): number {
  return Math.round(Number(podman(["image", "inspect", "-f", "{{.Size}}", image])) / 1e6);
}

async function main(): Promise<void> {
  const composeTool = await timed("compose.yaml", checkCompose);
  console.log(
    composeTool
      ? `compose.yaml: valid (${composeTool} config)`
      : "compose.yaml: NOT checked (neither docker compose nor docker-compose is installed)",
  );
  const base = await timed("stand-in base image", baseImage);
  // KASSA_TEST_BUILD=0: test the image already tagged KASSA_TEST_IMAGE as it is (a local re-run).
  if (process.env.KASSA_TEST_PREBUILT === "1")
    await timed("podman build (this checkout's build)", () => buildPrebuiltImage(base));
  else if (process.env.KASSA_TEST_BUILD !== "0") await timed("podman build", () => buildImage(base));
  const database = await freshDatabase();
  const volume = `kassa-test-${id}`;
  const first = `kassa-test-${id}-1`;
  const second = `kassa-test-${id}-2`;
  podman(["volume", "create", volume]);
  try {
    const port = await freePort();
    await timed("first container: start to ready", async () => {
      runContainer(first, volume, database.url, port, ["--memory", memoryLimit, "--memory-swap", memoryLimit]);
      await waitReady(first, port);
    });
    checkConfinement(first);
    const business = await timed("business created with the in-image CLI", () => createBusiness(first));
    const sessionId = await timed("sandbox session paid", () => paySession(port, business));
    const limited = await timed(`load within --memory ${memoryLimit}`, () => loadWithinMemory(first, port, business));
    const stopped = await timed("SIGTERM to exit", () => stopCleanly(first));
    console.log(`stopped cleanly in ${stopped.toFixed(1)} s`);
    await timed("second container on the same volume: start to ready", async () => {
      runContainer(second, volume, database.url, port);
      await waitReady(second, port);
    });
    const found = await api(port, business.secret_key, "GET", `/payment/${sessionId}`);
    check(
      found.status === 200 && found.json.status === "succeeded",
      `payment after restart: ${found.status} ${JSON.stringify(found.json)}`,
    );
    // The same load without a memory limit, for the ratio the issue asks (within 10%). Printed, not
    // asserted: on a shared 2-core machine the two runs see different loads (docs/deploy.md, §12).
    const unlimited = await timed("the same load, no memory limit", () => runLoad(port, business, "unlimited"));
    console.log(
      `throughput: ${limited.toFixed(1)} sessions/s within --memory ${memoryLimit}, ${unlimited.toFixed(1)} without a limit ` +
        `(ratio ${(limited / unlimited).toFixed(2)})`,
    );
    stopCleanly(second);
  } finally {
    for (const name of [first, second])
      spawnSync("podman", ["rm", "-f", "-t", "0", name], { stdio: "ignore" });
    spawnSync("podman", ["volume", "rm", "-f", volume], { stdio: "ignore" });
    await database.drop();
  }
  console.log(
    `\ntest-container: passed in ${((Date.now() - started) / 1000).toFixed(0)} s; image ${image}: ${imageSizeMb()} MB`,
  );
  for (const [name, seconds] of timings) console.log(`${seconds.toFixed(1).padStart(7)} s  ${name}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
