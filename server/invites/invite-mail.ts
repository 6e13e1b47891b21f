// Mailing an invitation's link through the SMTP server of SMTP_URL (nodemailer), when one is configured.
// SMTP_URL is read at each call, as ALLOW_PRIVATE_FETCH is (server/config.ts checks its form at start):
// tests and operators set it in the environment. The server is the operator's, not a user-given address,
// so the outbound address guard does not apply. A failure is answered, never thrown: the invite stands
// and its link is returned to the inviter either way. The link carries a secret: it is never logged.
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

export type MailOutcome = 'sent' | 'failed' | 'off';

export interface InvitationMail {
  to: string;
  organizationTitle: string;
  role: string | null;
  url: string;
  sso: boolean;
  expiresAt?: Date;
}

/** An SMTP server that does not answer must not hold the inviter's request for long. */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

/** nodemailer's codes for a server that cannot be reached or talked to (as opposed to one refusing a recipient). */
const CONNECTION_ERRORS = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'EAUTH', 'ETLS', 'EPROTOCOL']);

export function smtpUrl(env: Record<string, string | undefined> = process.env): string | undefined {
  return env.SMTP_URL || undefined;
}

function message(mail: InvitationMail): { subject: string; text: string } {
  const as = mail.role === null ? 'a guest' : `a member (${mail.role})`;
  const how = mail.sso
    ? `Sign in through the organization's single sign-on to join:\n\n${mail.url}\n`
    : `Open this one-time link to join${mail.expiresAt ? ` (it works until ${mail.expiresAt.toISOString()})` : ''}:\n\n${mail.url}\n\nThe link is for you only: do not forward it.\n`;
  return { subject: `You are invited to ${mail.organizationTitle}`, text: `You are invited to join ${mail.organizationTitle} as ${as}.\n\n${how}` };
}

/** Mails each invitation (one connection for all); what became of each, in order. */
export async function sendInvitations(mails: InvitationMail[], from: string, log: Logger): Promise<MailOutcome[]> {
  const url = smtpUrl();
  if (!url || mails.length === 0) return mails.map(() => 'off');
  const transport = nodemailer.createTransport(url, { ...TIMEOUTS, from });
  try {
    const outcomes: MailOutcome[] = [];
    for (const mail of mails) {
      try {
        await transport.sendMail({ to: mail.to, ...message(mail) });
        outcomes.push('sent');
      } catch (err) {
        const e = err as { code?: string; responseCode?: number; message?: string };
        // The error names the server's answer; the secret is in the message body, which no error carries, but scrub it anyway.
        log.warn({ to: mail.to, code: e.code, responseCode: e.responseCode, error: e.message?.split(mail.url).join('<link>') }, 'invitation mail failed');
        outcomes.push('failed');
        // No server to talk to: the next mails would wait as long to fail the same way.
        if (e.code && CONNECTION_ERRORS.has(e.code)) return [...outcomes, ...mails.slice(outcomes.length).map((): MailOutcome => 'failed')];
      }
    }
    return outcomes;
  } finally {
    transport.close();
  }
}
