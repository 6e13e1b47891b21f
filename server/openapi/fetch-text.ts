// Outbound HTTP for background jobs: every fetch has a deadline and a cap on the bytes it reads, so a slow
// or huge answer cannot hold a worker or fill its memory.
export class FetchTimeout extends Error {}
export class FetchFailed extends Error {}

export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
}

/** The body of `url` as text; throws FetchTimeout past the deadline, FetchFailed for a network error, a non-2xx status or a body over the cap. */
export async function fetchText(url: string, limits: FetchLimits, init: RequestInit = {}): Promise<string> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  try {
    const res = await fetch(url, { ...init, signal, redirect: 'follow' });
    if (!res.ok) throw new FetchFailed(`${url} answered ${res.status}`);
    const declared = Number(res.headers.get('content-length') ?? 0);
    if (declared > limits.maxBytes) throw new FetchFailed(`${url} is larger than ${limits.maxBytes} bytes`);
    if (!res.body) return '';
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > limits.maxBytes) throw new FetchFailed(`${url} is larger than ${limits.maxBytes} bytes`);
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  } catch (err) {
    if (err instanceof FetchFailed) throw err;
    if (signal.aborted) throw new FetchTimeout(`${url} did not answer within ${limits.timeoutMs} ms`);
    throw new FetchFailed(`${url} could not be fetched: ${(err as Error).message}`);
  }
}
