/**
 * What the webhook log says when it lists nothing: true to the endpoint's state (a test event
 * cannot be sent, and nothing is delivered, without a URL).
 */
export function webhookLogEmptyText(input: { status?: string; endpointSet: boolean }): string {
  if (input.status) return `No ${input.status} events.`;
  return input.endpointSet
    ? "No events yet. Send a test event to see a delivery here."
    : "No events yet, and no webhook endpoint is set: set its URL above, then send a test event to see a delivery here.";
}
