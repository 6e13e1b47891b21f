// A resource the description names that no operation of the description returns yet: it is published
// as a component so that clients can rely on its shape.
import { z } from './zod.js';
import { ex } from './examples.js';

export const Subdomain = z
  .object({
    object: z.literal('subdomain'),
    subdomain: z.string().regex(/^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$/),
    target: z.object({ type: z.literal('organization'), organization: z.string() }),
    isActive: z.boolean(),
  })
  .openapi('Subdomain', {
    description: 'A subdomain of the service pointing at an organization.',
    example: { object: 'subdomain', subdomain: 'acme', target: { type: 'organization', organization: ex.orgId }, isActive: true },
  });

/** Schemas published as components although no operation refers to them. */
export const standaloneSchemas = { Subdomain };
