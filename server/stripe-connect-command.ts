import type { Db } from "@/db/client";
import { BadRequestError, ValidationError } from "@/lib/errors";
import { connectStripe, type ConnectedStripe } from "@/lib/providers/stripe/connect-stripe";

/** Exit code when the key is stored but the signing secret is still missing (methods stay off). */
export const setupIncompleteExitCode = 3;

const optionNames: Record<string, string> = {
  secretKey: "--key",
  publishableKey: "--publishable-key",
  webhookSecret: "--webhook-secret",
};

/** `npx kassa stripe connect`: connectStripe, its result as the CLI's JSON object and text. */
export async function stripeConnectCommand(
  db: Db,
  input: { businessId: string; secretKey: string; webhookSecret?: string; publishableKey?: string },
): Promise<{ json: ReturnType<typeof connectionJson>; text: string; exitCode: number }> {
  let connected: ConnectedStripe;
  try {
    connected = await connectStripe(db, input.businessId, {
      secretKey: input.secretKey,
      publishableKey: input.publishableKey,
      webhookSecret: input.webhookSecret,
    });
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const problems = Object.entries(error.fields).map(
      ([field, messages]) => `${optionNames[field] ?? field}: ${messages.join("; ")}`,
    );
    throw new BadRequestError("invalid_option", problems.join("\n"));
  }
  return {
    json: connectionJson(connected),
    text: connectionText(connected),
    exitCode: connected.active ? 0 : setupIncompleteExitCode,
  };
}

/** The `--json` object (documented in README, Command line). */
export function connectionJson(c: ConnectedStripe) {
  return {
    business: c.businessId,
    account: c.accountId,
    key_kind: c.keyKind,
    livemode: c.livemode,
    active: c.active,
    webhook_endpoint: c.webhookEndpoint && {
      id: c.webhookEndpoint.id,
      url: c.webhookEndpoint.url,
      events: c.webhookEndpoint.events,
      status: c.webhookEndpoint.status,
      created: c.webhookEndpoint.created,
      missing_events: c.webhookEndpoint.missingEvents,
    },
    webhook_secret_stored: c.webhookSecretStored,
    publishable_key_stored: c.publishableKeyStored,
    missing: c.missing,
    required_endpoint: c.requiredEndpoint,
    methods: c.methods,
  };
}

function connectionText(c: ConnectedStripe): string {
  const key = `${c.livemode ? "live" : "test"} ${c.keyKind} key`;
  const lines: string[] = [];
  const endpoint = c.webhookEndpoint;
  if (c.active) {
    lines.push(`Connected Stripe${c.accountId ? ` account ${c.accountId}` : ""} (${key}) to ${c.businessId}.`);
    lines.push(
      endpoint
        ? `  webhook endpoint  ${endpoint.id} (${endpoint.created ? "created" : "existing"}) ${endpoint.url}`
        : `  webhook endpoint  not readable with this key; signing secret stored`,
    );
    lines.push(`  methods           ${c.methods.join(", ") || "none enabled"}`);
  } else {
    lines.push(
      `Stripe key stored for ${c.businessId} (${key}), but it may not create webhook endpoints and Kassa has no signing secret.`,
      "Create this endpoint in the Stripe Dashboard (Developers > Webhooks):",
      `  URL     ${c.requiredEndpoint.url}`,
      `  events  ${c.requiredEndpoint.events.join(", ")}`,
      "then run this command again with --webhook-secret whsec_… (the endpoint's signing secret).",
      "Card, Apple Pay and Google Pay stay off until then.",
    );
  }
  if (c.missing.includes("webhook_endpoint") && endpoint)
    lines.push(
      `The endpoint ${endpoint.id} is ${endpoint.status === "enabled" ? "missing events" : "disabled"}: enable it with ${endpoint.missingEvents.join(", ")}.`,
    );
  if (c.missing.includes("publishable_key"))
    lines.push("No publishable key: the hosted page shows Stripe's card form once you add --publishable-key pk_live_….");
  return lines.join("\n");
}
