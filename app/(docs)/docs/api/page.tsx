import type { Metadata } from "next";
import { openApiDocument } from "@/lib/openapi/document";
import { ApiReference } from "./_components/api-reference";

export const metadata: Metadata = { title: "API reference" };

// GET /docs/api: the OpenAPI document of GET {base_url}/openapi.json, rendered by Scalar in the
// browser. The document is handed over in the page itself (no second request, no base_url whose
// origin might differ from the page's and fall outside the page's connect-src).
export default function ApiReferencePage() {
  return <ApiReference document={openApiDocument()} />;
}
