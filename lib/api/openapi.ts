import { apiHandler } from "@/lib/http/handler";
import { json } from "@/lib/http/respond";
import { openApiDocument } from "@/lib/openapi/document";

// GET /openapi.json (public: the document describes the API, it reveals nothing of a business)
export const getOpenApiDocument = apiHandler({
  auth: "none",
  handle: async () => {
    const response = json(200, openApiDocument());
    // The document changes only with a deploy: a client may keep it for a few minutes.
    response.headers.set("cache-control", "public, max-age=300");
    return response;
  },
});
