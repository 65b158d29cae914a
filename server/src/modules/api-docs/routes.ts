import type { FastifyZod } from "../../lib/fastify-zod.ts";
import type { ApiRouteCatalog } from "../api-v1/routes.ts";
import { renderDocsPage } from "./docs-page.ts";
import { buildOpenApiDocument, type OpenApiDocument } from "./openapi.ts";

/**
 * `/api/openapi.json` and the reference page `/api/docs`, made once on first request from the /api/v1 routes as
 * registered (the catalog is complete by then).
 */
export async function apiDocsRoutes(
  app: FastifyZod,
  { catalog, publicUrl, keyKind }: { catalog: ApiRouteCatalog; publicUrl: string; keyKind: "test" | "live" },
) {
  let document: OpenApiDocument | null = null;
  let page: string | null = null;
  const documentOf = () => {
    document ??= buildOpenApiDocument(catalog, publicUrl, keyKind);
    return document;
  };
  app.get("/api/openapi.json", { config: { rateLimit: "public" } }, async (_request, reply) =>
    reply.header("Cache-Control", "public, max-age=300").send(documentOf()),
  );
  app.get("/api/docs", { config: { rateLimit: "public" } }, async (_request, reply) => {
    page ??= renderDocsPage(documentOf());
    return reply.type("text/html; charset=utf-8").header("Cache-Control", "public, max-age=300").send(page);
  });
}
