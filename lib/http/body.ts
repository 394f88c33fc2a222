import { BadRequestError, PayloadTooLargeError } from "@/lib/errors";

/** The API's JSON bodies: at most 256 KB (the server cuts a larger one as it arrives, server/body-limit.ts). */
export const maxBodyBytes = 256 * 1024;

/** The request body as a JSON object; an empty body reads as `{}` when allowed. */
export async function readJsonObject(
  request: Request,
  { allowEmpty = false }: { allowEmpty?: boolean } = {},
): Promise<Record<string, unknown>> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBodyBytes) throw new PayloadTooLargeError("Request body is too large");
  let text: string;
  try {
    text = await request.text();
  } catch {
    throw new BadRequestError("invalid_json", "Request body could not be read");
  }
  if (Buffer.byteLength(text) > maxBodyBytes)
    throw new PayloadTooLargeError("Request body is too large");
  if (text.trim() === "") {
    if (allowEmpty) return {};
    throw new BadRequestError("invalid_json", "Request body must be a JSON object");
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new BadRequestError("invalid_json", "Request body must be valid JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new BadRequestError("invalid_json", "Request body must be a JSON object");
  return parsed as Record<string, unknown>;
}
