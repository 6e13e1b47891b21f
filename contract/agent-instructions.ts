// Agent instructions of an organization.
import { DateTime } from './common.js';
import { Document, documentExample } from './document.js';
import { ex } from './examples.js';
import { access } from './access.js';
import { operations } from './operation.js';
import { OrganizationIdParams } from './organizations.js';
import { z } from './zod.js';

export const agentInstructionsExample = {
  object: 'agent-instructions' as const,
  instructions: documentExample,
  updatedAt: ex.updatedAt,
  updatedBy: ex.userId,
  urls: { location: `${ex.baseUrl}/v1/orgs/${ex.orgId}/agent-instructions` },
};

export const AgentInstructions = z
  .object({
    object: z.literal('agent-instructions'),
    instructions: Document.openapi({ description: 'The instructions, as rich text.' }),
    updatedAt: DateTime.openapi({ description: 'When the instructions were last saved.' }),
    updatedBy: z.string().openapi({ description: 'The id of the member who last saved the instructions (`getUserById` reads them), as in GitBook.' }),
    urls: z.object({ location: z.url() }),
  })
  .openapi('AgentInstructions', {
    description: "Instructions the organization's AI agent follows: tone, conventions, what to avoid.",
    example: agentInstructionsExample,
  });

const agentInstructionsResponse = (description: string) => ({
  description,
  schema: AgentInstructions,
  example: agentInstructionsExample,
});

export const agentInstructionOperations = operations({
  getOrganizationAgentInstructions: {
    method: 'get',
    path: '/orgs/{organizationId}/agent-instructions',
    tag: 'organizations',
    summary: 'Get the agent instructions of an organization',
    description:
      "Returns the instructions the organization's AI agent follows. Before they are first saved there are none: " +
      'not found (404), like an unknown organization.',
    params: OrganizationIdParams,
    responses: { 200: agentInstructionsResponse('The agent instructions.') },
    errors: [404],
    access: access.organization('read'),
    statements: 1,
  },
  updateOrganizationAgentInstructions: {
    method: 'put',
    path: '/orgs/{organizationId}/agent-instructions',
    tag: 'organizations',
    summary: 'Replace the agent instructions of an organization',
    description:
      "Replaces the instructions the organization's AI agent follows, recording the caller and the time. " +
      'Needs the admin role (403 otherwise). An unknown organization is not found (404).',
    params: OrganizationIdParams,
    body: z
      .strictObject({
        instructions: Document.openapi({ description: 'The new instructions, as rich text.' }),
      })
      .openapi('UpdateAgentInstructions'),
    bodyExample: { instructions: documentExample },
    responses: { 200: agentInstructionsResponse('The saved agent instructions.') },
    errors: [403, 404],
    access: access.organization('admin'),
    statements: 3,
  },
});
