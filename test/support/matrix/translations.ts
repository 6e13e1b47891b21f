// Matrix fixtures of translations: a translation of a fresh space.
import type { MatrixFixtures } from './types.js';

export const translationFixtures: MatrixFixtures = {
  params: {
    translationId: async ({ admin }) => {
      const space = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Matrix' })).body.id;
      const res = await admin.api.post(`/orgs/${admin.organizationId}/translations`, { source: { space, language: 'en' }, language: 'fr' });
      return res.body.id;
    },
  },
  bodies: {
    createTranslation: async ({ admin }) => {
      const space = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Matrix' })).body.id;
      return { source: { space, language: 'en' }, language: 'fr' };
    },
    updateTranslation: () => ({ instructions: { object: 'document', data: {}, nodes: [] } }),
  },
};
