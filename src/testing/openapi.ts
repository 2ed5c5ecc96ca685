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

/** Where the document is served, below `/api/v1/external` and at the root. */
export const OPENAPI_PATH = '/openapi.json';

/** Whether a request for `pathname` asks for the document: `<baseURL>/openapi.json` or `<origin>/openapi.json`. */
export function isOpenApiPath(pathname: string): boolean {
  return pathname === `${API_PREFIX}${OPENAPI_PATH}` || pathname === OPENAPI_PATH;
}

const documents = new Map<string, unknown>();

/** The answer to a request for the document: 200 for `GET` (and `HEAD`), else 405 with `Allow: GET`. */
export async function openApiResponse(request: Request, url: URL): Promise<Response> {
  const method = request.method.toUpperCase();
  if (method !== 'GET' && method !== 'HEAD') {
    throw new MockHttpError(405, 'invalid_request_error', `${method} is not allowed here; allowed: GET`, {}, { allow: 'GET' });
  }
  const serverURL = `${url.origin}${API_PREFIX}`;
  let document = documents.get(serverURL);
  if (!document) {
    const { openApiDocument } = await import('../openapi.js');
    documents.set(serverURL, (document = openApiDocument({ serverURL })));
  }
  return jsonResponse(200, method === 'HEAD' ? undefined : document);
}
