"use client";

import { ApiReferenceReact } from "@scalar/api-reference-react";
import "@scalar/api-reference-react/style.css";
import { useMemo, type ComponentProps } from "react";
import type { openApiDocument } from "@/lib/openapi/document";

type Configuration = ComponentProps<typeof ApiReferenceReact>["configuration"];

/**
 * Scalar's reference, offline: everything it would fetch from scalar.com or offer to send there
 * is switched off (decision 0028). Its fonts (fonts.scalar.com) give way to the system's; the AI
 * agent (on by default on localhost), telemetry, the "Open API client" button and the request
 * client (which offers Scalar's proxy, registry and import by URL) are hidden, as are the
 * developer tools (shown on localhost by default). Search, dark mode and the JSON download work
 * on the page alone.
 */
const offlineConfiguration = {
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  hideClientButton: true,
  hideTestRequestButton: true,
  showDeveloperTools: "never",
  documentDownloadType: "json",
} satisfies Configuration;

export function ApiReference({ document }: { document: ReturnType<typeof openApiDocument> }) {
  // Scalar re-applies the configuration whenever its identity changes: build it once.
  const configuration = useMemo<Configuration>(
    () => ({ ...offlineConfiguration, content: document }),
    [document],
  );
  return <ApiReferenceReact configuration={configuration} />;
}
