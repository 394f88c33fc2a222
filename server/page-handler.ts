import type http from "node:http";
import compression from "next/dist/compiled/compression";
import { releaseCompressionStream } from "next/dist/server/lib/release-compression-stream";
import { deferFrameworkScripts } from "./deferred-scripts";

type Handle = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;

/**
 * Next's request handler as the server runs it (server/main.ts). The server compresses what Next
 * answers, with the middleware and release Next's own server uses (next.config.ts turns Next's off),
 * so that the hosted checkout's HTML can be rewritten before it is compressed: its framework
 * scripts are requested once the page has been shown (./deferred-scripts.ts, decision 0033, tenth
 * pass).
 */
export function pageHandler(handle: Handle): Handle {
  const compress = compression();
  const noop = () => {};
  return (req, res) => {
    compress(req, res, noop);
    // As Next's router server: a client gone before the end would leave the zlib stream open.
    res.once("close", () => {
      if (!res.writableFinished) releaseCompressionStream(res);
    });
    if (req.method === "GET" && isCheckoutPage(req.url)) deferFrameworkScripts(res);
    return handle(req, res);
  };
}

/** The hosted checkout's page (app/(checkout)/checkout/[sessionId]); not its result pages below. */
function isCheckoutPage(url: string | undefined): boolean {
  return url !== undefined && /^\/checkout\/[^/?#]+(?:[?#]|$)/.test(url);
}
