// The one-time join link of an invitation by email, outside /v1 and without a bearer token (the person
// invited has no account before it). GET shows the invitation and never uses it (mail scanners and link previewers send
// GETs); POST uses it: a new account, a member with the invite's role, and an access token shown once.
// The secret travels in the query string or the body, never in a path: the request log writes neither.
import express, { Router } from 'express';
import type { Logger } from 'pino';
import type { Db } from '../db/client.js';
import type { Urls } from '../urls.js';
import { findJoinLink, JOIN_PATH, joinByLink } from './email-invites.store.js';

export interface JoinLinkDeps {
  db: Db;
  now: () => Date;
  log: Logger;
  /** Where the API is served (the page names the operation an existing account joins with). */
  urls: Urls;
}

const noStore = { 'Cache-Control': 'no-store', Pragma: 'no-cache', 'Referrer-Policy': 'no-referrer' };
const pageHeaders = { ...noStore, 'Content-Security-Policy': "default-src 'none'; form-action 'self'", 'X-Content-Type-Options': 'nosniff' };

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Invitation</title></head><body>${body}</body></html>`;

export function joinLinkRoutes(deps: JoinLinkDeps): Router {
  const router = Router();

  router.get(JOIN_PATH, async (req, res, next) => {
    try {
      const token = typeof req.query.token === 'string' ? req.query.token : '';
      const link = await findJoinLink(deps.db, token, deps.now());
      res.set(pageHeaders).type('html');
      if (!link) {
        res.status(404).send(page('<p>This invitation link is unknown, used, revoked or expired. Ask for a new invitation.</p>'));
        return;
      }
      const as = link.role === null ? 'a guest' : `a member (${escapeHtml(link.role)})`;
      const intro = `<p>${escapeHtml(link.email)} is invited to join <strong>${escapeHtml(link.organizationTitle)}</strong> as ${as}.</p>`;
      const action = link.accountExists
        ? `<p>An account with this email exists: sign in as it and join with <code>POST ${escapeHtml(deps.urls.api(`/orgs/${link.organizationId}/invites/${link.inviteId}`))}</code>.</p>`
        : `<form method="post" action="${JOIN_PATH}"><input type="hidden" name="token" value="${escapeHtml(token)}"><button type="submit">Accept and create my account</button></form>` +
          '<p>Accepting creates your account and shows you an access token, once.</p>';
      res.status(200).send(page(intro + action));
    } catch (err) {
      next(err);
    }
  });

  router.post(JOIN_PATH, express.json({ limit: '4kb' }), express.urlencoded({ extended: false, limit: '4kb', parameterLimit: 5 }), async (req, res, next) => {
    try {
      const joined = await joinByLink(deps.db, (req.body as { token?: unknown } | undefined)?.token, deps.now());
      deps.log.info({ reqId: req.id, userId: joined.userId, organizationId: joined.organizationId }, 'joined with an invitation link');
      if (req.is('urlencoded')) {
        res
          .status(200)
          .set(pageHeaders)
          .type('html')
          .send(page(`<p>You are a member now. Your access token (shown this once):</p><pre>${escapeHtml(joined.token)}</pre><p>Send it as <code>Authorization: Bearer …</code>.</p>`));
        return;
      }
      res.status(200).set(noStore).json({ object: 'invite-token', ...joined });
    } catch (err) {
      next(err);
    }
  });

  return router;
}
