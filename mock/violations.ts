// Prism reports why it refused a request only in the `sl-violations` header (JSON), and answers with the
// operation's documented error example, whose message is about something else. These helpers put the
// real reasons into plain words, for the mock's log and for the body of its 4xx answers.

interface Violation {
  location?: string[];
  message?: string;
}

/** The violations of a `sl-violations` header as one line ("body.title: … ; query.limit: …"), or undefined. */
export function describeViolations(header: string | undefined): string | undefined {
  if (!header) return undefined;
  let violations: Violation[];
  try {
    violations = JSON.parse(header) as Violation[];
  } catch {
    return header;
  }
  if (!Array.isArray(violations) || violations.length === 0) return undefined;
  return violations
    .map((v) => {
      // ["request", "body", "title"] -> "body.title"; the request as a whole has no field to name.
      const field = (v.location ?? []).filter((part, i) => !(i === 0 && part === 'request')).join('.');
      return field ? `${field}: ${v.message ?? 'invalid'}` : (v.message ?? 'invalid request');
    })
    .join('; ');
}

/** The error body a client should see for a refused request: the real reasons, not the example's message. */
export function violationErrorBody(status: number, description: string): string {
  const prefix = status === 400 || status === 422 ? 'Invalid request: ' : '';
  return JSON.stringify({ error: { code: status, message: `${prefix}${description}` } });
}
