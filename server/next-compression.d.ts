// The compression middleware Next's own server applies to every response (next/dist/compiled is untyped).
declare module "next/dist/compiled/compression" {
  import type http from "node:http";

  export default function compression(): (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    next: () => void,
  ) => void;
}
