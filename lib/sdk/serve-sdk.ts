import { createHash } from "node:crypto";
import { baseUrl, checkoutUrl, origin } from "@/lib/env";
import { json } from "@/lib/http/respond";
import { log } from "@/lib/log";
import { buildSdk, readBuiltSdk, sdkFileNames, withBases, type SdkBases, type SdkFileName } from "./build-sdk";

type Built = { text: string; etag: string };

const contentTypes: Record<SdkFileName, string> = {
  "kassa.js": "text/javascript; charset=utf-8",
  "kassa.global.js": "text/javascript; charset=utf-8",
  "kassa.d.ts": "application/typescript; charset=utf-8",
};

/** This Kassa's base_url and checkout_url as paths when they are on ORIGIN (so any host name Kassa is reached by works). */
export function sdkBases(): SdkBases {
  const own = (url: string) => (url.startsWith(`${origin()}/`) ? url.slice(origin().length) : url);
  return { apiBase: own(baseUrl()), checkoutBase: own(checkoutUrl()) };
}

let built: Promise<Record<SdkFileName, Built>> | null = null;

/**
 * The build's files with this Kassa's bases put in, read once per process (decision 0023). Without
 * a build (`npm run dev`) the SDK is bundled here instead; a failure is tried again next time.
 */
async function loadSdk() {
  const prebuilt = await readBuiltSdk();
  return prebuilt ? withBases(prebuilt, sdkBases()) : buildSdk(sdkBases());
}

function sdkFiles(): Promise<Record<SdkFileName, Built>> {
  built ??= loadSdk().then(
    (files) =>
      Object.fromEntries(
        sdkFileNames.map((name) => {
          const hash = createHash("sha256").update(files[name]).digest("base64url").slice(0, 27);
          return [name, { text: files[name], etag: `"${hash}"` }];
        }),
      ) as Record<SdkFileName, Built>,
    (error: unknown) => {
      built = null;
      throw error;
    },
  );
  return built;
}

const isSdkFile = (name: string): name is SdkFileName => (sdkFileNames as readonly string[]).includes(name);

/**
 * GET /sdk/v1/{file}. Loaded by merchants' pages on other origins: an ES module import from another
 * origin is a CORS request, so every answer allows any origin (no credentials: nothing is private).
 * Cached five minutes, then revalidated by ETag, so a fix reaches pages within minutes.
 */
export async function sdkResponse(request: Request, name: string): Promise<Response> {
  const cors = { "access-control-allow-origin": "*", "cross-origin-resource-policy": "cross-origin" };
  if (!isSdkFile(name)) return json(404, { error: "Not found" }, cors);
  let file: Built;
  try {
    file = (await sdkFiles())[name];
  } catch (error) {
    log.error("the browser SDK could not be built", { error });
    return json(503, { error: "sdk_unavailable", message: "The SDK could not be built; try again." }, { ...cors, "retry-after": "5" });
  }
  const headers = {
    ...cors,
    "content-type": contentTypes[name],
    "cache-control": "public, max-age=300",
    etag: file.etag,
    "x-content-type-options": "nosniff",
  };
  const wanted = request.headers.get("if-none-match");
  if (wanted && wanted.split(",").some((tag) => tag.trim().replace(/^W\//, "") === file.etag))
    return new Response(null, { status: 304, headers });
  return new Response(file.text, { status: 200, headers });
}
