import { startStripeEmulator } from "./index";

// Runs the emulator on its own: npm start -w @kassa/stripe-emulator -- [--port 12111] [--host 127.0.0.1]
function flag(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
}

const port = Number(flag("port") ?? 0);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error("--port must be a port number (0 picks a free one)");
  process.exit(2);
}
const emulator = await startStripeEmulator({ port, host: flag("host") ?? "127.0.0.1" });
console.log(`Stripe emulator listening on ${emulator.url}`);
console.log(`new Stripe("sk_test_anything", ${JSON.stringify(emulator.stripeConfig)})`);
const stop = () => void emulator.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
