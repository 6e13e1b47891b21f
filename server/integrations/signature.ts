// The signature of event deliveries to a development tunnel, as webhooks are commonly signed: an
// HMAC-SHA256 of "<timestamp>.<body>" keyed with the integration's signing secret, sent as
// `X-Integration-Signature: t=<unix seconds>,v1=<hex>`. The receiver recomputes it over the raw body and
// refuses an old timestamp, so it can check both origin and age. The secret is the one the publisher
// gives in `secrets` under SIGNING_SECRET_NAME (so the publisher knows it); without one, deliveries go
// unsigned and the trace says so.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-integration-signature';
export const SIGNING_SECRET_NAME = 'SIGNING_SECRET';

/** The header value for `body` at `now`. */
export function signatureHeader(secret: string, body: string | Buffer, now: Date): string {
  const t = Math.floor(now.getTime() / 1000);
  return `t=${t},v1=${sign(secret, t, body)}`;
}

/** The hex HMAC of "<t>." followed by the body's bytes (a string body as UTF-8). */
function sign(secret: string, t: number, body: string | Buffer): string {
  return createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
}

/** Whether `header` signs `body` with `secret` and is at most `toleranceSeconds` old at `now` (what a receiver does). */
export function verifySignature(secret: string, body: string | Buffer, header: string, now: Date, toleranceSeconds = 300): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !parts.v1 || Math.abs(now.getTime() / 1000 - t) > toleranceSeconds) return false;
  const expected = Buffer.from(sign(secret, t, body));
  const given = Buffer.from(parts.v1);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
