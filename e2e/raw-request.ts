import http from "node:http";

export type RawReply = { status: number; contentType: string; body: string };

/**
 * A GET whose path goes on the wire exactly as given: node:http writes `path` into the request
 * line untouched, where a URL-based client (fetch, Playwright's request) would normalise it.
 */
export function rawGet(
  baseURL: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<RawReply> {
  const { hostname, port } = new URL(baseURL);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, path, method: "GET", headers, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode!, contentType: res.headers["content-type"] ?? "", body }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}
