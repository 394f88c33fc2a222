import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { WebhookHeadersSchema, WebhookPayloadSchema } from "../webhook-payload-schema";

// Test support: a real HTTP receiver on 127.0.0.1 (the only address tests ever send to).

export type ReceivedRequest = {
  at: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The exact bytes received. */
  body: Buffer;
};

export type Reply = { status: number; headers?: Record<string, string>; body?: string; delayMs?: number };

export type LoopbackReceiver = {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** TCP connections accepted (to prove a refused delivery never connected). */
  connections: number;
  /** Resolves once `count` requests have arrived. */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  /** With `checkPayloads`, rejects if a Kassa delivery contradicted the documented payload or headers. */
  close(): Promise<void>;
};

/**
 * A Kassa delivery (it carries `webhook-id`) of a real event must match the schemas the OpenAPI
 * document's `webhooks` are generated from; anything else posted here is the test's own business.
 */
function contractViolation(request: ReceivedRequest): string | null {
  if (request.headers["webhook-id"] === undefined) return null;
  const headers = WebhookHeadersSchema.safeParse({
    Signature: request.headers.signature,
    "webhook-id": request.headers["webhook-id"],
    "webhook-timestamp": request.headers["webhook-timestamp"],
    "webhook-signature": request.headers["webhook-signature"],
  });
  let body: unknown;
  try {
    body = JSON.parse(request.body.toString("utf8"));
  } catch {
    return `webhook body is not JSON: ${request.body.toString("utf8").slice(0, 200)}`;
  }
  const payload = WebhookPayloadSchema.safeParse(body);
  const problems = [...(headers.error?.issues ?? []), ...(payload.error?.issues ?? [])];
  if (!problems.length) return null;
  const list = problems.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`).join("; ");
  return `webhook ${String(request.headers["webhook-id"])} does not match the documented payload: ${list}. Body: ${request.body.toString("utf8")}`;
}

export async function startLoopbackReceiver(
  reply: (request: ReceivedRequest, index: number) => Reply = () => ({ status: 200, body: "ok" }),
  /** `checkPayloads`: the events come from the real flows (delivery tests that send made-up bodies leave it off). */
  options: { checkPayloads?: boolean } = {},
): Promise<LoopbackReceiver> {
  const requests: ReceivedRequest[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const violations: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const received: ReceivedRequest = {
        at: Date.now(),
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      const index = requests.push(received) - 1;
      const violation = options.checkPayloads ? contractViolation(received) : null;
      if (violation) violations.push(violation);
      for (const w of [...waiters]) if (requests.length >= w.count) w.resolve();
      const answer = reply(received, index);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body ?? "");
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  const receiver = {
    url: "",
    port: 0,
    requests,
    connections: 0,
    waitForRequests(count: number, timeoutMs = 30_000) {
      if (requests.length >= count) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`expected ${count} requests, got ${requests.length}`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close(() => (violations.length ? reject(new Error(violations.join("\n"))) : resolve()));
      }),
  };
  server.on("connection", () => {
    receiver.connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}/hooks`;
  return receiver;
}
