// Why a SAML sign-in was refused: a short reason code for the log and a sentence for the answer.
import { ApiError } from '../errors.js';

export type RefusalReason =
  | 'unknown-provider'
  | 'provider-not-active'
  | 'malformed-request'
  | 'bad-return-to'
  | 'bad-signature'
  | 'expired'
  | 'wrong-audience'
  | 'wrong-recipient'
  | 'wrong-issuer'
  | 'unsolicited'
  | 'unknown-request'
  | 'replayed'
  | 'idp-error'
  | 'no-email'
  | 'not-a-member'
  | 'member-disabled'
  | 'invalid-response';

export class SignInRefused extends ApiError {
  constructor(
    status: 400 | 401 | 403 | 404,
    readonly reason: RefusalReason,
    message: string,
    /** What the library or check said, for the log only. */
    readonly detail?: string,
  ) {
    super(status, message);
  }
}

/** A response that does not authenticate anyone: 401 with the reason. */
export function rejected(reason: RefusalReason, message: string, detail?: string): SignInRefused {
  return new SignInRefused(401, reason, `SAML response refused: ${message}`, detail);
}

/**
 * Names the reason of a validation error of @node-saml/node-saml from its message (the library throws plain
 * Errors). Anything not recognized is an invalid response.
 */
export function classifyLibraryError(err: unknown): SignInRefused {
  const message = err instanceof Error ? err.message : String(err);
  const rules: [RegExp, RefusalReason, string][] = [
    [/signature/i, 'bad-signature', "not signed with the provider's certificate"],
    [/expired|not yet valid|too old|No valid subject confirmation/i, 'expired', 'outside its validity window'],
    [/audience/i, 'wrong-audience', "not addressed to this service's entity id"],
    [/SAML provider returned/i, 'idp-error', 'the identity provider reported an error'],
  ];
  for (const [pattern, reason, sentence] of rules) {
    if (pattern.test(message)) return rejected(reason, sentence, message);
  }
  return rejected('invalid-response', 'not a valid SAML response', message);
}
