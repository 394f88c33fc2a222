// The floor: bare node:http + postgres.js doing the same durable work as Kassa's POST /session
// (find the API key by its digest, then one transaction inserting the session row and its expiry
// outbox row) and GET /payment/{id} (the key, then the session row). Its own tables, in a scratch
// schema of the benchmark's database: nothing of Kassa's is read or written.
// Run: FLOOR_DATABASE_URL=postgres://… PORT=… tsx bench/floor-server.ts (prints "ready <port> <key>").
import { createHash, randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import postgres from "postgres";

const schema = "kassa_bench_floor";
const url = process.env.FLOOR_DATABASE_URL;
if (!url) throw new Error("floor-server: FLOOR_DATABASE_URL is required");
const sql = postgres(url, { max: Number(process.env.FLOOR_POOL ?? 10), onnotice: () => {} });

const digest = (key: string) => createHash("sha256").update(key).digest("hex");

async function prepare(): Promise<string> {
  await sql.unsafe(`
    drop schema if exists ${schema} cascade;
    create schema ${schema};
    create table ${schema}.api_keys (digest text primary key, business_id uuid not null);
    create table ${schema}.sessions (
      id text primary key, business_id uuid not null, amount integer not null, currency text not null,
      customer text not null, order_id text not null, items jsonb not null,
      status text not null default 'open', created_at timestamptz not null default now(),
      expires_at timestamptz not null
    );
    create table ${schema}.jobs (
      id uuid primary key, kind text not null, payload jsonb not null, run_at timestamptz not null,
      status text not null default 'pending'
    );
  `);
  const key = `sk_test_${randomBytes(24).toString("hex")}`;
  await sql`insert into ${sql(schema)}.api_keys ${sql({ digest: digest(key), business_id: randomUUID() })}`;
  return key;
}

async function businessOf(request: http.IncomingMessage): Promise<string | undefined> {
  const token = /^Bearer (\S+)$/.exec(request.headers.authorization ?? "")?.[1];
  if (!token) return undefined;
  const [row] = await sql<{ business_id: string }[]>`
    select business_id from ${sql(schema)}.api_keys where digest = ${digest(token)}`;
  return row?.business_id;
}

function readBody(request: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function send(response: http.ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  response.end(text);
}

type SessionBody = { amount: number; currency: string; customer: string; order_id: string; items: unknown[] };

function parseSession(text: string): SessionBody | undefined {
  try {
    const body = JSON.parse(text) as Partial<SessionBody>;
    const valid =
      Number.isInteger(body.amount) && typeof body.currency === "string" && typeof body.customer === "string" &&
      typeof body.order_id === "string" && Array.isArray(body.items);
    return valid ? (body as SessionBody) : undefined;
  } catch {
    return undefined;
  }
}

async function postSession(request: http.IncomingMessage, response: http.ServerResponse) {
  const businessId = await businessOf(request);
  if (!businessId) return send(response, 401, { error: "unauthorized" });
  const body = parseSession(await readBody(request));
  if (!body) return send(response, 400, { error: "invalid body" });
  const id = `cs_${randomUUID().replaceAll("-", "")}`;
  const expiresAt = new Date(Date.now() + 24 * 3600_000);
  await sql.begin(async (tx) => {
    await tx`insert into ${sql(schema)}.sessions ${sql({
      id, business_id: businessId, amount: body.amount, currency: body.currency, customer: body.customer,
      order_id: body.order_id, items: sql.json(body.items as postgres.JSONValue), expires_at: expiresAt,
    })}`;
    await tx`insert into ${sql(schema)}.jobs ${sql({
      id: randomUUID(), kind: "session.expire", payload: sql.json({ session_id: id }), run_at: expiresAt,
    })}`;
  });
  send(response, 201, { session_id: id, checkout_url: `http://floor.invalid/checkout/${id}` });
}

async function getPayment(id: string, request: http.IncomingMessage, response: http.ServerResponse) {
  const businessId = await businessOf(request);
  if (!businessId) return send(response, 401, { error: "unauthorized" });
  const [row] = await sql`
    select id, amount, currency, customer, order_id, items, status, created_at, expires_at
    from ${sql(schema)}.sessions where id = ${id} and business_id = ${businessId}`;
  if (!row) return send(response, 404, { error: "not found" });
  send(response, 200, row);
}

const key = await prepare();
const server = http.createServer((request, response) => {
  const path = request.url ?? "/";
  const work =
    request.method === "POST" && path === "/api/session"
      ? postSession(request, response)
      : request.method === "GET" && path.startsWith("/api/payment/")
        ? getPayment(decodeURIComponent(path.slice("/api/payment/".length)), request, response)
        : Promise.resolve(send(response, 404, { error: "not found" }));
  work.catch((error: unknown) => {
    console.error(error);
    if (!response.headersSent) send(response, 500, { error: "internal" });
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  console.log(`ready ${(server.address() as AddressInfo).port} ${key}`);
});
const stop = () => server.close(() => void sql.end().then(() => process.exit(0)));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
