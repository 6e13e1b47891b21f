// The adaptive schema of a site: a draft-07 JSON Schema of the visitor attributes, checked with Ajv
// twice: it must be a valid draft-07 schema, and it must have the one shape the service supports
// (boolean properties, an optional `unsigned` object of boolean claims, no additional properties).
import { Ajv } from 'ajv';
import { eq } from 'drizzle-orm';
import type { components } from '../../generated/types.js';
import type { OrganizationGrant } from '../auth/access.js';
import type { Ctx } from '../context.js';
import { sites } from '../db/schema/index.js';
import { BadRequest, NotFound } from '../errors.js';
import { requireGrantedSite, requireSite } from './structure.js';

type SiteAdaptiveSchema = components['schemas']['SiteAdaptiveSchema'];

const booleanProperty = {
  type: 'object',
  required: ['type'],
  properties: { type: { const: 'boolean' }, description: { type: 'string' }, title: { type: 'string' } },
  additionalProperties: false,
};

const objectOf = (properties: object) => ({
  type: 'object',
  required: ['type', 'properties', 'additionalProperties'],
  properties: {
    $schema: { const: 'http://json-schema.org/draft-07/schema#' },
    type: { const: 'object' },
    title: { type: 'string' },
    description: { type: 'string' },
    properties: { type: 'object', ...properties },
    additionalProperties: { const: false },
  },
  additionalProperties: false,
});

/** The shape an adaptive schema must have, as a JSON Schema itself. */
const shape = objectOf({
  properties: { unsigned: objectOf({ additionalProperties: booleanProperty }) },
  additionalProperties: booleanProperty,
});

const ajv = new Ajv({ allErrors: false, strict: false });
const checkShape = ajv.compile(shape);

/** Throws BadRequest naming the field unless `jsonSchema` is a valid draft-07 schema of the supported shape. */
export function validateAdaptiveSchema(jsonSchema: Record<string, unknown>): void {
  let valid: boolean;
  try {
    valid = ajv.validateSchema(jsonSchema) as boolean;
  } catch (error) {
    // An unknown `$schema` (another draft) is reported by a throw.
    throw new BadRequest(`Invalid request: body.jsonSchema.$schema: not a draft-07 JSON Schema (${(error as Error).message})`);
  }
  if (!valid) {
    const [error] = ajv.errors ?? [];
    throw new BadRequest(`Invalid request: body.jsonSchema${error?.instancePath.replace(/\//g, '.') ?? ''}: not a valid draft-07 JSON Schema (${error?.message ?? 'invalid'})`);
  }
  if (!checkShape(jsonSchema)) {
    const [error] = checkShape.errors ?? [];
    const where = error?.instancePath.replace(/\//g, '.') ?? '';
    const extra = error?.params && 'additionalProperty' in error.params ? ` (${String(error.params.additionalProperty)})` : '';
    throw new BadRequest(`Invalid request: body.jsonSchema${where}: ${error?.message ?? 'invalid'}${extra}; expected an object schema of boolean properties and an optional \`unsigned\` object of boolean claims, with additionalProperties false`);
  }
}

function toSchema(jsonSchema: Record<string, unknown>, updatedAt: Date): SiteAdaptiveSchema {
  return { object: 'site-adaptive-schema', jsonSchema, updatedAt: updatedAt.toISOString() };
}

/** The adaptive schema of a site; NotFound when the site has none. */
export async function getAdaptiveSchema(ctx: Ctx, org: OrganizationGrant, siteId: string): Promise<SiteAdaptiveSchema> {
  const site = await requireGrantedSite(ctx, org, siteId);
  if (!site.adaptiveSchema || !site.adaptiveSchemaUpdatedAt) throw new NotFound(`Site ${siteId} has no adaptive schema`);
  return toSchema(site.adaptiveSchema, site.adaptiveSchemaUpdatedAt);
}

/** Replaces the adaptive schema of a site after validating it. */
export async function putAdaptiveSchema(ctx: Ctx, org: OrganizationGrant, siteId: string, jsonSchema: Record<string, unknown>) {
  const site = await requireSite(ctx, org.organization.id, siteId);
  validateAdaptiveSchema(jsonSchema);
  const now = ctx.now();
  await ctx.db.update(sites).set({ adaptiveSchema: jsonSchema, adaptiveSchemaUpdatedAt: now, updatedAt: now }).where(eq(sites.id, site.id));
  return toSchema(jsonSchema, now);
}

type Property = { description?: string };

/** Ready-made conditions: one per boolean claim of the schema (none without a schema). */
export async function listTemplateConditions(ctx: Ctx, org: OrganizationGrant, siteId: string) {
  const site = await requireGrantedSite(ctx, org, siteId);
  const properties = (site.adaptiveSchema?.properties ?? {}) as Record<string, Property & { properties?: Record<string, Property> }>;
  const items: { description: string; condition: string }[] = [];
  for (const [name, property] of Object.entries(properties)) {
    if (name === 'unsigned') continue;
    items.push({ description: property.description ?? `The visitor's ${name} claim is true`, condition: `visitor.claims.${name}` });
  }
  for (const [name, property] of Object.entries(properties.unsigned?.properties ?? {})) {
    items.push({
      description: property.description ?? `The visitor's unsigned ${name} claim is true`,
      condition: `visitor.claims.unsigned.${name}`,
    });
  }
  return { items };
}
