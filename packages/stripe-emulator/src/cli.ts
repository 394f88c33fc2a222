import { startStripeEmulator } from "./index";

// Runs the emulator on its own, for manual tries: npx tsx lib/stripe-emulator/cli.ts [--port 12111]
const portFlag = process.argv.indexOf("--port");
const port = portFlag === -1 ? 0 : Number(process.argv[portFlag + 1]);
const emulator = await startStripeEmulator({ port });
console.log(`Stripe emulator listening on ${emulator.url}`);
console.log(`new Stripe("sk_test_anything", ${JSON.stringify(emulator.stripeConfig)})`);
const stop = () => void emulator.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
