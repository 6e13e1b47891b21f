// The machine translation behind translation runs, as an interface with two providers: one speaking the
// LibreTranslate HTTP API (TRANSLATOR_URL), and one that copies the text unchanged (no translator set up).
import { fetchText, type OutboundLimits } from '../http/outbound.js';

export interface Translator {
  readonly name: string;
  /** The texts in `to`, in the same order; throws when the provider fails. */
  translate(texts: string[], from: string, to: string): Promise<string[]>;
}

/** Copies text unchanged: the provider when no translator is configured. */
export const copyTranslator: Translator = {
  name: 'copy',
  translate: async (texts) => [...texts],
};

/** A LibreTranslate server (`POST <url>/translate` with `q` as an array), every call with a deadline and a size cap. */
export function libreTranslator(baseUrl: string, limits: OutboundLimits = { timeoutMs: 30_000, maxBytes: 10 * 1024 * 1024 }): Translator {
  const endpoint = new URL('translate', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`).toString();
  return {
    name: 'libretranslate',
    async translate(texts, from, to) {
      if (texts.length === 0) return [];
      const body = JSON.stringify({ q: texts, source: from, target: to, format: 'text' });
      const text = await fetchText(endpoint, limits, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        // TRANSLATOR_URL is the operator's own choice, often a LibreTranslate on the same host.
        origin: 'operator',
      });
      const parsed = JSON.parse(text) as { translatedText?: unknown };
      const out = parsed.translatedText;
      if (!Array.isArray(out) || out.length !== texts.length || !out.every((t) => typeof t === 'string')) {
        throw new Error('The translator answered without one translated text per input');
      }
      return out as string[];
    },
  };
}

/** The translator configured by TRANSLATOR_URL (checked at start by server/config.ts), else the copying one. */
export function configuredTranslator(env: Record<string, string | undefined> = process.env): Translator {
  return env.TRANSLATOR_URL ? libreTranslator(env.TRANSLATOR_URL) : copyTranslator;
}
