import type { translationOperations } from '../../contract/translations.js';
import type { AppHandlers } from '../handler-types.js';
import {
  createTranslation,
  deleteTranslation,
  getTranslation,
  listTranslations,
  runTranslation,
  updateInstructions,
} from './translations.store.js';

export const translationHandlers = {
  async listTranslations({ grant, query }, ctx) {
    return { status: 200, body: await listTranslations(ctx, grant, query) };
  },
  async createTranslation({ grant, body }, ctx) {
    const translation = await createTranslation(ctx, grant, body);
    return { status: 201, body: translation, headers: { Location: translation.urls.location } };
  },
  async getTranslation({ grant, params }, ctx) {
    return { status: 200, body: await getTranslation(ctx, grant, params.translationId) };
  },
  async updateTranslation({ grant, params, body }, ctx) {
    return { status: 200, body: await updateInstructions(ctx, grant, params.translationId, body.instructions) };
  },
  async deleteTranslation({ grant, params }, ctx) {
    await deleteTranslation(ctx, grant, params.translationId);
    return { status: 204 };
  },
  async runTranslation({ grant, params }, ctx) {
    await runTranslation(ctx, grant, params.translationId);
    return { status: 204 };
  },
} satisfies Partial<Pick<AppHandlers, keyof typeof translationOperations>>;
