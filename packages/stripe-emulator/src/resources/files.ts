import type Stripe from "stripe";
import { listing, retrieving } from "../accepted-params";
import { invalidRequest } from "../errors";
import { newObjectId } from "../ids";
import { paginate } from "../list";
import { requireObject } from "../lookup";
import type { Route } from "../router";
import { timeOn } from "../state";

/** Purposes the emulator accepts uploads for. */
const purposes = ["dispute_evidence", "additional_verification", "identity_document"] as const;

const typeOf = (mime: string, filename: string): string => {
  const byMime: Record<string, string> = {
    "application/pdf": "pdf",
    "image/png": "png",
    "image/jpeg": "jpg",
    "image/gif": "gif",
  };
  return byMime[mime] ?? filename.split(".").pop()?.toLowerCase() ?? "bin";
};

export const fileRoutes: Route[] = [
  // POST /v1/files (multipart/form-data, sent by the SDK to files.stripe.com, here the emulator)
  {
    method: "POST",
    path: "/v1/files",
    stripeParams: "FileCreateParams",
    accepts: ["expand", "file", "purpose"],
    handler: ({ ctx, params }) => {
      const purpose = params.oneOf("purpose", purposes, { required: true });
      const upload = params.object("file", { required: true });
      const name = upload.string("name") ?? "file";
      const type = typeOf(upload.string("type") ?? "", name);
      if (purpose === "dispute_evidence" && !["pdf", "png", "jpg", "jpeg", "gif"].includes(type)) {
        throw invalidRequest(
          `Invalid file: must be one of the following types: pdf, jpeg, png, gif for purpose dispute_evidence.`,
          { param: "file" },
        );
      }
      const id = newObjectId("file");
      const created = timeOn(ctx, null);
      const file: Stripe.File = {
        id,
        object: "file",
        created,
        expires_at: created + 365 * 86_400,
        filename: name,
        links: { object: "list", data: [], has_more: false, url: `/v1/file_links?file=${id}` },
        purpose,
        size: Number(upload.string("data") ?? 0),
        title: null,
        type,
        url: `${ctx.emu.baseUrl}/v1/files/${id}/contents`,
      };
      return ctx.account.store.insert("file", file);
    },
  },
  // GET /v1/files/:id
  {
    method: "GET",
    path: "/v1/files/:id",
    stripeParams: "FileRetrieveParams",
    accepts: retrieving,
    handler: ({ ctx, path }) => requireObject(ctx, "file", path.id),
  },
  // GET /v1/files
  {
    method: "GET",
    path: "/v1/files",
    stripeParams: "FileListParams",
    accepts: listing("purpose"),
    handler: ({ ctx, params }) => {
      const purpose = params.string("purpose");
      const all = ctx.account.store.all("file").filter((file) => (purpose ? file.purpose === purpose : true));
      return paginate(all, params, "/v1/files");
    },
  },
];
