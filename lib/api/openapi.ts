import { apiHandler } from "@/lib/api/handler";
import { json } from "@/lib/http/respond";

// GET /openapi.json (public: the document describes the API, it reveals nothing of a business).
// The document, with zod-to-openapi and every path's schemas, loads on the first request for it:
// a server that is never asked does not hold it (issue 43).
export const getOpenApiDocument = apiHandler({
  auth: "none",
  handle: async () => {
    const { openApiDocument } = await import("@/lib/openapi/document");
    const response = json(200, openApiDocument());
    // The document changes only with a deploy: a client may keep it for a few minutes.
    response.headers.set("cache-control", "public, max-age=300");
    return response;
  },
});
