// Turns the contract into the published OpenAPI 3.1 document.
import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { errorExamples, errorStatusNames } from '../contract/common.js';
import { apiInfo, contractOperations, downloadOperations, standaloneSchemas, tags } from '../contract/index.js';
import { describeAccess } from '../contract/access.js';
import { hoistConditionalFlags } from '../contract/conditional.js';
import { describeStatementBudget, errorsOf, type LinkOperation, type Operation, type SuccessResponse } from '../contract/operation.js';
import { namedSchemas } from '../contract/zod.js';

/** `{ error: { code, message } }`, with `code` pinned to the response's status. */
function errorBodySchema(code: number) {
  return {
    type: 'object' as const,
    required: ['error'],
    properties: {
      error: {
        type: 'object' as const,
        required: ['code', 'message'],
        properties: {
          code: { type: 'integer' as const, format: 'int32', enum: [code] },
          message: { type: 'string' as const },
        },
      },
    },
  };
}

/**
 * The rate-limit headers every /v1 answer carries while the server limits requests (RATE_LIMIT_PER_MINUTE
 * above 0, the default): not `required`, since a server run with the limit off sends none.
 */
const rateLimitHeaders = {
  'X-RateLimit-Limit': { description: 'Requests allowed per minute to this token (or, without a valid token, this address).', required: false, schema: { type: 'integer' as const, example: 1200 } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current minute.', required: false, schema: { type: 'integer' as const, example: 1187 } },
  'X-RateLimit-Reset': { description: 'When the current minute ends and the count starts again, in seconds since the Unix epoch.', required: false, schema: { type: 'integer' as const, example: 1764000060 } },
};
const retryAfter = { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' as const } } };

function registerErrorResponses(registry: OpenAPIRegistry) {
  for (const [status, name] of Object.entries(errorStatusNames)) {
    const code = Number(status) as keyof typeof errorStatusNames;
    registry.registerComponent('responses', name, {
      description: name.replace(/Error$/, '').replace(/([a-z])([A-Z])/g, '$1 $2') + ' error.',
      // 503: the request did not happen (the database could not be reached); 429: the token or address is over
      // its rate limit. Either may be sent again after Retry-After seconds.
      headers: { ...rateLimitHeaders, ...((code === 503 || code === 429) && retryAfter) },
      content: {
        'application/json': {
          schema: errorBodySchema(code),
          example: { error: { code, message: errorExamples[code] } },
        },
      },
    });
  }
}

/**
 * A text body (YAML): a string of its media type, as a client reading it as text gets it. `format: binary`
 * stays from when it was documented as bytes (the released document has it; removing it is breaking for
 * the gate), and says the same: the body is the text as sent, not parsed.
 */
function textContent(text: NonNullable<SuccessResponse['text']>) {
  return { [text.mediaType]: { schema: { type: 'string' as const, format: 'binary', contentMediaType: text.mediaType, description: text.description }, example: text.example } };
}

function successResponses(op: Operation): Record<string, ResponseConfig> {
  const out: Record<string, ResponseConfig> = {};
  for (const [status, res] of Object.entries(op.responses)) {
    out[status] = {
      description: res.description,
      headers: {
        ...rateLimitHeaders,
        ...Object.fromEntries(
          Object.entries(res.headers ?? {}).map(([name, h]) => [name, { description: h.description, schema: { type: 'string', example: h.example } }]),
        ),
      },
      ...(res.schema && { content: { 'application/json': { schema: res.schema, example: res.example } } }),
      ...(res.mediaTypes && { content: Object.fromEntries(res.mediaTypes.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])) }),
      ...(res.text && { content: textContent(res.text) }),
    };
  }
  return out;
}

/** A path served without a token (see `LinkOperation`): no bearer security, no rate-limit headers. */
function registerLinkOperation(registry: OpenAPIRegistry, operationId: string, op: LinkOperation) {
  const [status, res] = Object.entries(op.responses)[0];
  const headers = Object.fromEntries(Object.entries(res.headers ?? {}).map(([name, h]) => [name, { description: h.description, schema: { type: 'string' as const, example: h.example } }]));
  registry.registerPath({
    operationId,
    method: op.method,
    path: op.path,
    tags: [op.tag],
    summary: op.summary,
    description: `${op.description} ${op.permission === 'signed' ? 'Needs no access token: the URL is the permission.' : 'Needs no access token: public.'}`,
    security: [],
    request: { ...(op.params && { params: op.params }), ...(op.query && { query: op.query }) },
    responses: {
      [status]: {
        description: res.description,
        ...(Object.keys(headers).length > 0 && { headers }),
        ...(res.schema && { content: { 'application/json': { schema: res.schema, example: res.example } } }),
        ...(res.mediaTypes && { content: Object.fromEntries(res.mediaTypes.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])) }),
        ...(res.text && { content: textContent(res.text) }),
      },
      ...Object.fromEntries(op.errors.map((code) => [String(code), { $ref: `#/components/responses/${errorStatusNames[code as keyof typeof errorStatusNames]}` }])),
    },
  });
}

function registerOperation(registry: OpenAPIRegistry, operationId: string, op: Operation) {
  const errors = Object.fromEntries(
    errorsOf(op).map((status) => [String(status), { $ref: `#/components/responses/${errorStatusNames[status]}` }]),
  );
  registry.registerPath({
    operationId,
    method: op.method,
    path: op.path,
    tags: [op.tag],
    summary: op.summary,
    description: [
      op.description,
      describeAccess(op.access),
      describeStatementBudget(op.statements),
      op.maxBodyBytes && `Request bodies may be up to ${op.maxBodyBytes / (1024 * 1024)} MiB (1 MiB elsewhere).`,
    ]
      .filter(Boolean)
      .join(' '),
    request: {
      ...(op.params && { params: op.params }),
      ...(op.query && { query: op.query }),
      ...(op.body && {
        body: {
          required: !op.bodyOptional,
          content: { 'application/json': { schema: op.body, example: op.bodyExample } },
        },
      }),
    },
    responses: { ...successResponses(op), ...errors },
  });
}

/** The OpenAPI 3.1 document of the whole contract, as a plain object. */
export function buildOpenApiDocument() {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'user', {
    type: 'http',
    scheme: 'bearer',
    description: 'An access token, sent as `Authorization: Bearer <token>`.',
  });
  registerErrorResponses(registry);
  // Named schemas first, each from its own declaration (see `namedSchemas`).
  for (const [name, schema] of namedSchemas) registry.register(name, schema);
  for (const [name, schema] of Object.entries(standaloneSchemas)) registry.register(name, schema);
  for (const [operationId, op] of Object.entries(contractOperations)) registerOperation(registry, operationId, op);
  for (const [operationId, op] of Object.entries(downloadOperations)) registerLinkOperation(registry, operationId, op);

  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { ...apiInfo, license: { name: 'MIT', identifier: 'MIT' } },
    servers: [{ url: '/v1', description: 'Every path is under the /v1 prefix of the server that serves this document.' }],
    security: [{ user: [] }],
    tags,
  });
  hoistConditionalFlags(document);
  return document;
}
