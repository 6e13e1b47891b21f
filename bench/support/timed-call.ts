// A bench's JSON calls to the API of a server it started in its own process, each timed.

/**
 * `call(method, url, body?)` on `base` (…/v1) as the holder of `token`: the answer's JSON and how long the
 * request took; an answer of 300 or more throws with its body, so a bench never times a failure.
 */
export function timedCaller(base: string, token: string) {
  return async (method: string, url: string, body?: unknown) => {
    const started = performance.now();
    const res = await fetch(base + url, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body !== undefined && { 'Content-Type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const json = (await res.json()) as any;
    if (res.status >= 300) throw new Error(`${method} ${url} -> ${res.status} ${JSON.stringify(json)}`);
    return { ms: performance.now() - started, body: json };
  };
}
