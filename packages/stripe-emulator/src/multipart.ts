import { invalidRequest } from "./errors";
import type { FormObject } from "./form";

/**
 * A `multipart/form-data` body (what the SDK sends to POST /v1/files) as form parameters. A file
 * part becomes `{ name, type, data }` with `data` its size in bytes: the emulator keeps what a
 * File object says about an upload, not its contents.
 */
export function parseMultipart(body: Buffer, contentType: string): FormObject {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const marker = boundary?.[1] ?? boundary?.[2];
  if (!marker) throw invalidRequest("Invalid multipart body: no boundary.");
  const delimiter = Buffer.from(`--${marker}`);
  const out: FormObject = {};
  let start = body.indexOf(delimiter);
  while (start !== -1) {
    const next = body.indexOf(delimiter, start + delimiter.length);
    if (next === -1) break;
    const part = body.subarray(start + delimiter.length + 2, next - 2);
    const split = part.indexOf("\r\n\r\n");
    if (split !== -1) {
      const headers = part.subarray(0, split).toString("utf8");
      const content = part.subarray(split + 4);
      const name = /name="([^"]*)"/i.exec(headers)?.[1];
      const filename = /filename="([^"]*)"/i.exec(headers)?.[1];
      const type = /content-type:\s*([^\r\n;]+)/i.exec(headers)?.[1] ?? "application/octet-stream";
      if (name) {
        out[name] =
          filename !== undefined
            ? { name: filename, type, data: String(content.length) }
            : content.toString("utf8");
      }
    }
    start = next;
  }
  return out;
}
