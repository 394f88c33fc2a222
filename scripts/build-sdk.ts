// Builds the browser SDK into .next/kassa-sdk (decision 0023): run after `next build` by
// `npm run build` and by `npm start`'s build, so a deployment of the build serves it as it is.
import { builtSdkDir, writeBuiltSdk } from "@/lib/sdk/build-sdk";

await writeBuiltSdk();
console.log(`Built the browser SDK into ${builtSdkDir()}`);
