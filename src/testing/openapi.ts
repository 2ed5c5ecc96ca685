/**
 * `GET /api/v1/external/openapi.json`: the OpenAPI 3.1 document of the service, as shipped in
 * `forecasting-sdk/openapi.json`, with the mock's own address as its server. The generator (and
 * zod's JSON Schema output) loads on the first request for it, not with the mock.
 *
 * Served at `/openapi.json` beside the origin too, where `forecasting mock` announces it: there,
 * too, the document names the mock's own address as its server, not the `{base_url}` placeholder.
 * @module
 */
import { API_PREFIX } from './router.js';
import { jsonResponse, MockHttpError } from './http.js';
import { mockControlsOpenApi } from './control-openapi.js';

/** Where the document is served, below `/api/v1/external` and at the root. */
export const OPENAPI_PATH = '/openapi.json';

/** Whether a request for `pathname` asks for the document: `<baseURL>/openapi.json` or `<origin>/openapi.json`. */
export function isOpenApiPath(pathname: string): boolean {
  return pathname === `${API_PREFIX}${OPENAPI_PATH}` || pathname === OPENAPI_PATH;
}

const documents = new Map<string, unknown>();

/**
 * `document` with the mock's control routes (`/__mock/…`) added under their own tag, "Mock control",
 * each with the mock's `origin` as its server. Only the mock's documents get them: the package's
 * `openapi.json` describes the real service. `forecasting mock` serves the package's document so.
 * @example
 * ```ts
 * import document from 'forecasting-sdk/openapi.json' with { type: 'json' };
 * const served = withMockControls(document, 'http://127.0.0.1:4010'); // paths['/__mock/clock'], tag 'Mock control'
 * ```
 */
export function withMockControls(document: Record<string, unknown>, origin: string): Record<string, unknown> {
  const { tag, paths } = mockControlsOpenApi(origin);
  const tags = Array.isArray(document['tags']) ? (document['tags'] as unknown[]) : [];
  const own = (document['paths'] ?? {}) as Record<string, unknown>;
  return { ...document, tags: [...tags, tag], paths: { ...own, ...paths } };
}

/**
 * The answer to a request for the document: 200 for `GET` (and `HEAD`), else 405 with `Allow: GET`.
 * With `controls`, the document describes the mock's control routes too.
 */
export async function openApiResponse(request: Request, url: URL, controls = false): Promise<Response> {
  const method = request.method.toUpperCase();
  if (method !== 'GET' && method !== 'HEAD') {
    throw new MockHttpError(405, 'invalid_request_error', `${method} is not allowed here; allowed: GET`, {}, { allow: 'GET' });
  }
  const serverURL = `${url.origin}${API_PREFIX}`;
  const cacheKey = `${controls ? 'controls ' : ''}${serverURL}`;
  let document = documents.get(cacheKey);
  if (!document) {
    const { openApiDocument } = await import('../openapi.js');
    const generated = openApiDocument({ serverURL });
    documents.set(cacheKey, (document = controls ? withMockControls(generated, url.origin) : generated));
  }
  return jsonResponse(200, method === 'HEAD' ? undefined : document);
}
