// The agent instructions of an organization: one document per organization, with who saved it and when.
import { upgradeDocument } from '../content/document-upgrade.js';
import type { Document } from '../content/markdown-document.js';
import { eq } from 'drizzle-orm';
import type { components } from '../../generated/types.js';
import type { OrganizationGrant } from '../auth/access.js';
import { rowsOf } from '../db/attached-select.js';
import type { Ctx } from '../context.js';
import { agentInstructions } from '../db/schema/index.js';
import { NotFound } from '../errors.js';
import { assertStorableDocument } from '../content/document-check.js';

export type AgentInstructions = components['schemas']['AgentInstructions'];

/** The select of the organization's instructions, as getAgentInstructions reads it (and attaches it: server/attached-reads.ts). */
export function agentInstructionsSelect(ctx: Ctx, organizationId: string) {
  return ctx.db.select({ doc: agentInstructions }).from(agentInstructions).where(eq(agentInstructions.organizationId, organizationId));
}

/** The organization's instructions; throws NotFound before they are first saved. Read from the grant's statement when attached there. */
export async function getAgentInstructions(ctx: Ctx, org: OrganizationGrant): Promise<AgentInstructions> {
  const organizationId = org.organization.id;
  const [row] = await rowsOf(org.attached, 'agent_instructions', agentInstructionsSelect(ctx, organizationId));
  if (!row) throw new NotFound(`Organization ${organizationId} has no agent instructions yet`);
  return {
    object: 'agent-instructions',
    instructions: upgradeDocument(row.doc.instructions as Document) as unknown as AgentInstructions['instructions'],
    updatedAt: row.doc.updatedAt.toISOString(),
    // Every save records its caller, and this service deletes no user, so the id is always there.
    updatedBy: row.doc.updatedBy ?? '',
    urls: { location: ctx.urls.api(`/orgs/${organizationId}/agent-instructions`) },
  };
}

/** Replaces the organization's instructions, recording the caller and the time. */
export async function putAgentInstructions(ctx: Ctx, org: OrganizationGrant, instructions: unknown): Promise<AgentInstructions> {
  assertStorableDocument(instructions as { nodes: unknown[] }, 'body.instructions');
  const values = { instructions, updatedAt: ctx.now(), updatedBy: ctx.caller.userId };
  await ctx.db
    .insert(agentInstructions)
    .values({ organizationId: org.organization.id, ...values })
    .onConflictDoUpdate({ target: agentInstructions.organizationId, set: values });
  return getAgentInstructions(ctx, org);
}
