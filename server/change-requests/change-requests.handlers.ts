import type { changeRequestOperations } from '../../contract/change-requests.js';
import { fileLinks } from '../content/file-links.js';
import { toFile } from '../content/revision-view.js';
import type { AppHandlers } from '../handler-types.js';
import { listChangeRequests, organizationScope, spaceScope } from './change-requests.list.js';
import {
  bringUpToDate,
  createChangeRequest,
  getChangeRequest,
  mergeChangeRequest,
  updateChangeRequest,
  updateChangeRequestContent,
} from './change-requests.store.js';
import { issuePdfLink } from './pdf-links.js';

export const changeRequestHandlers = {
  async listChangeRequestsForSpace({ grant, query }, ctx) {
    return { status: 200, body: await listChangeRequests(ctx, spaceScope(grant.row.id, query.status), query, { spaceRole: grant.role }, grant.attached) };
  },
  async listChangeRequestsForOrganization({ grant, query }, ctx) {
    // Guests see no content unless granted it, and content grants are not stored (as for the space list).
    if (grant.role === null) return { status: 200, body: { items: [], count: 0 } };
    return { status: 200, body: await listChangeRequests(ctx, organizationScope(grant.organization.id, query.status, query.space), query, { orgRole: grant.role }, grant.attached) };
  },
  async createChangeRequest({ grant, body }, ctx) {
    const changeRequest = await createChangeRequest(ctx, grant, {
      subject: body?.subject,
      description: body?.description,
      conversationsIssuesCluster: body?.conversationsIssuesCluster,
    });
    return { status: 201, body: changeRequest, headers: { Location: changeRequest.urls.location } };
  },
  async getChangeRequestById({ grant, params }, ctx) {
    return { status: 200, body: await getChangeRequest(ctx, grant, params.changeRequestId) };
  },
  async updateChangeRequestById({ grant, params, body }, ctx) {
    return { status: 200, body: await updateChangeRequest(ctx, grant, params.changeRequestId, body) };
  },
  async mergeChangeRequest({ grant, params }, ctx) {
    return { status: 200, body: await mergeChangeRequest(ctx, grant, params.changeRequestId) };
  },
  async updateChangeRequest({ grant, params }, ctx) {
    return { status: 200, body: await bringUpToDate(ctx, grant, params.changeRequestId) };
  },
  async getChangeRequestPDF({ grant, params, query }, ctx) {
    return { status: 200, body: { url: await issuePdfLink(ctx, grant, params.changeRequestId, query) } };
  },
  async updateChangeRequestContent({ grant, params, query, body }, ctx) {
    const done = await updateChangeRequestContent(ctx, grant, params.changeRequestId, body);
    if (query.compat) return { status: 200, body: done.changeRequest };
    const base = `/spaces/${grant.row.id}/change-requests/${done.changeRequest.id}/content/page`;
    const page = (id: string) => ({ object: 'page' as const, id, urls: { location: ctx.urls.api(`${base}/${id}`) } });
    const links = await fileLinks(ctx, grant.row.id);
    return {
      status: 200,
      body: {
        changeRequest: done.changeRequest,
        changes: done.results.map((r) => (r.object === 'deleted_page' ? r : { ...r, page: page(r.page) })),
        insertedFiles: done.insertedFiles.map((f) => toFile(f, links)),
        ...(done.reusableResults.length > 0 && { reusableContents: done.reusableResults }),
      },
    };
  },
} satisfies Partial<Pick<AppHandlers, keyof typeof changeRequestOperations>>;
