import { buildOpenApiDocument, type OpenApiDocument } from '../../shared/http/openapi/document.js';
import { routeGroups, routes } from '../../shared/http/routes.js';
import { resources } from '../../shared/resources/registry.js';
import { operationDocs } from './operation-docs.js';

/** The document of this service and its JSON text, built on first use and kept for the life of the process. */
let built: { document: OpenApiDocument; json: string } | undefined;

function build(): { document: OpenApiDocument; json: string } {
  const document = buildOpenApiDocument({ routes, resources, groups: routeGroups, operations: operationDocs });
  return { document, json: JSON.stringify(document) };
}

export function openApiDocument(): OpenApiDocument {
  built ??= build();
  return built.document;
}

export function openApiJson(): string {
  built ??= build();
  return built.json;
}
