import type { agentInstructionOperations } from '../../contract/agent-instructions.js';
import type { AppHandlers } from '../handler-types.js';
import { getAgentInstructions, putAgentInstructions } from './agent-instructions.store.js';

export const agentInstructionHandlers = {
  async getOrganizationAgentInstructions({ grant }, ctx) {
    return { status: 200, body: await getAgentInstructions(ctx, grant) };
  },
  async updateOrganizationAgentInstructions({ grant, body }, ctx) {
    return { status: 200, body: await putAgentInstructions(ctx, grant, body.instructions) };
  },
} satisfies Partial<Pick<AppHandlers, keyof typeof agentInstructionOperations>>;
