import multipart from "@fastify/multipart";
import {
  CrawlUrlBody,
  DocumentAgent,
  DocumentLinkBody,
  DocumentList,
  DocumentSearchQuery,
  DocumentSearchResponse,
  ErrorResponse,
  KnowledgeDocument,
  KnowledgeSettings,
  KnowledgeSettingsResponse,
  MessageResponse,
  UploadDocumentsResponse,
} from "@parley/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { messageAfter } from "../../lib/message-handler.ts";
import { routeOptions } from "../../lib/route-options.ts";
import { requireOwner } from "../../lib/tenant-scope.ts";
import { tenantOf, tenantRoute } from "../../plugins/tenant.ts";
import { requireAgent } from "../assistants/service.ts";
import { addVersionLinkReader } from "../assistants/version-links.ts";
import { getKnowledgeSettings, saveKnowledgeSettings } from "./embeddings.ts";
import { addCrawl, addUploads, refreshDocument } from "./intake.ts";
import { documentJobGivenUp, EMBED_QUEUE, embedWorkspaceJob, PROCESS_QUEUE, processDocumentJob } from "./processing.ts";
import { searchDocuments } from "./search.ts";
import {
  DOCUMENT_NOT_FOUND,
  deleteDocument,
  documentAgentsOf,
  documentFile,
  linkDocument,
  listAgentDocuments,
  listDocuments,
  oneWithAgents,
  requireDocument,
  unlinkDocument,
  withAgents,
} from "./service.ts";
import { readDocumentUpload } from "./upload.ts";
import { vectorSupport } from "./vector-support.ts";
import { documentVersionLinks } from "./version-links.ts";

const IdParams = z.object({ id: z.uuid() });

/** Documents API (spec §7 "Documents") plus search, settings, refresh and download; needs registerJobs(app). */
export async function documentRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx, jobs } = app;
  const { db } = ctx;
  const route = routeOptions(tenantRoute(app), ["documents"]);
  addVersionLinkReader(documentVersionLinks);
  if (!app.hasContentTypeParser("multipart/form-data")) await app.register(multipart);

  jobs.register(PROCESS_QUEUE, (payload, job) => processDocumentJob(ctx, app.log, payload, job), {
    onGiveUp: (payload) => documentJobGivenUp(ctx, app.log, payload),
  });
  jobs.register(EMBED_QUEUE, (payload) => embedWorkspaceJob(ctx, app.log, payload));

  r.get(
    "/documents/list",
    route("The workspace's documents, newest first", { response: { 200: DocumentList } }),
    async (request) => {
      const tenant = tenantOf(request);
      return withAgents(db, tenant, await listDocuments(db, tenant));
    },
  );

  r.post(
    "/documents/upload",
    route(
      "Upload 1–10 files (multipart; PDF, DOCX, TXT, Markdown, HTML, CSV; 10 MB each), processed in the background",
      {
        consumes: ["multipart/form-data"],
        response: { 201: UploadDocumentsResponse, 413: ErrorResponse, 415: ErrorResponse },
      },
    ),
    async (request, reply) => {
      const tenant = tenantOf(request);
      const files = await readDocumentUpload(request);
      const rows = await addUploads(db, jobs, tenant, files);
      return reply.code(201).send({ documents: await withAgents(db, tenant, rows) });
    },
  );

  r.post(
    "/documents/crawl_url",
    route("Crawl a site: intensity 1 = the page, 2 = same-site links one level down (25 pages), 3 = two levels (100)", {
      body: CrawlUrlBody,
      response: { 201: KnowledgeDocument },
    }),
    async (request, reply) => {
      const tenant = tenantOf(request);
      const row = await addCrawl(db, jobs, tenant, request.body);
      return reply.code(201).send(await oneWithAgents(db, tenant, row));
    },
  );

  r.get(
    "/documents/search",
    route("The chunks that best answer a question (of one assistant's documents with agent_id)", {
      querystring: DocumentSearchQuery,
      response: { 200: DocumentSearchResponse },
    }),
    async (request) => {
      const tenant = tenantOf(request);
      if (request.query.agent_id) await requireAgent(db, tenant, request.query.agent_id);
      return searchDocuments(ctx, tenant, request.query, request.log);
    },
  );

  r.get(
    "/documents/settings",
    route("The workspace's embeddings provider", { response: { 200: KnowledgeSettingsResponse } }),
    async (request) => ({
      ...(await getKnowledgeSettings(db, tenantOf(request))),
      vector_search_available: await vectorSupport(db, request.log),
    }),
  );

  r.put(
    "/documents/settings",
    route("Choose the embeddings provider (owners); a change re-embeds every document", {
      body: KnowledgeSettings,
      response: { 200: KnowledgeSettingsResponse },
    }),
    async (request) => {
      const tenant = tenantOf(request);
      requireOwner(tenant);
      const { settings, changed } = await saveKnowledgeSettings(db, tenant, request.body);
      if (changed && settings.embeddings_provider)
        await jobs.enqueue(db, EMBED_QUEUE, { workspaceId: tenant.workspaceId });
      return { ...settings, vector_search_available: await vectorSupport(db, request.log) };
    },
  );

  r.get(
    "/documents/agent/:id",
    route("Documents linked to an assistant", { params: IdParams, response: { 200: DocumentList } }),
    async (request) => {
      const tenant = tenantOf(request);
      return withAgents(db, tenant, await listAgentDocuments(db, tenant, request.params.id));
    },
  );

  r.post(
    "/documents/link-agent",
    route("Link a document to an assistant", { body: DocumentLinkBody, response: { 200: MessageResponse } }),
    messageAfter("Document linked.", (request) =>
      linkDocument(db, tenantOf(request), request.body.agent_id, request.body.document_id),
    ),
  );

  r.post(
    "/documents/unlink-agent",
    route("Unlink a document from an assistant", { body: DocumentLinkBody, response: { 200: MessageResponse } }),
    messageAfter("Document unlinked.", (request) =>
      unlinkDocument(db, tenantOf(request), request.body.agent_id, request.body.document_id),
    ),
  );

  r.get(
    "/documents/:id",
    route("One document", { params: IdParams, response: { 200: KnowledgeDocument } }),
    async (request) => {
      const tenant = tenantOf(request);
      const row = await requireDocument(db, tenant, request.params.id);
      return oneWithAgents(db, tenant, row);
    },
  );

  r.get(
    "/documents/:id/agents",
    route("Assistants a document is linked to", { params: IdParams, response: { 200: z.array(DocumentAgent) } }),
    async (request) => documentAgentsOf(db, tenantOf(request), request.params.id),
  );

  r.get(
    "/documents/:id/file",
    {
      ...tenantRoute(app),
      // The answer is the file's bytes: no response schema to serialize them with.
      schema: { tags: ["documents"], summary: "Download the original upload", params: IdParams },
    },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const row = await requireDocument(db, tenant, request.params.id);
      const data = await documentFile(db, tenant, row.id);
      if (!data) return reply.code(404).send({ detail: DOCUMENT_NOT_FOUND });
      return reply
        .header("content-type", row.mimeType || "application/octet-stream")
        .header("content-disposition", `attachment; filename*=UTF-8''${encodeURIComponent(row.name)}`)
        .send(data);
    },
  );

  r.post(
    "/documents/:id/refresh",
    route("Read a document again (re-crawl a site); its chunks are replaced at once when done", {
      params: IdParams,
      response: { 200: KnowledgeDocument },
    }),
    async (request) => {
      const tenant = tenantOf(request);
      const row = await refreshDocument(db, jobs, tenant, request.params.id);
      return oneWithAgents(db, tenant, row);
    },
  );

  r.delete(
    "/documents/:id",
    route("Delete a document and its chunks", { params: IdParams, response: { 200: MessageResponse } }),
    messageAfter("Document deleted.", (request) => deleteDocument(db, tenantOf(request), request.params.id)),
  );
}
