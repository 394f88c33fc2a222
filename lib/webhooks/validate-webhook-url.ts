import { isIP } from "node:net";
import { env } from "@/lib/env";
import { ValidationError } from "@/lib/errors";
import { addressRefusal, parseWebhookUrl, WebhookTargetRefusedError } from "./address-policy";

/**
 * For settings forms and the CLI: the URL normalised, or a 400 on `field`. Refuses what can be
 * refused without DNS (not http(s), a literal non-public address, `localhost`); every delivery
 * checks again after resolving the host, so a name that later points inside is refused then.
 */
export function validateWebhookUrl(
  value: string,
  options: { field?: string; allowPrivate?: boolean } = {},
): string {
  const field = options.field ?? "webhook_url";
  const allowPrivate = options.allowPrivate ?? env().ALLOW_PRIVATE_WEBHOOK_URLS;
  let url: URL;
  try {
    url = parseWebhookUrl(value.trim());
  } catch (error) {
    if (error instanceof WebhookTargetRefusedError)
      throw ValidationError.field(field, error.message.replace(/^Refused: /, ""));
    throw error;
  }
  if (!allowPrivate) {
    const host = url.hostname.replace(/^\[|\]$/g, "");
    const refusal = isIP(host)
      ? addressRefusal(host)
      : host === "localhost" || host.endsWith(".localhost")
        ? `${host} is a loopback name`
        : null;
    if (refusal)
      throw ValidationError.field(field, `The webhook URL must reach a public address: ${refusal}`);
  }
  return url.toString();
}
