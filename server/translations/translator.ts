// The machine translation behind translation runs, as an interface with three providers chosen by
// TRANSLATOR_KIND (server/config.ts checks the settings at start):
// - `libretranslate`: the LibreTranslate HTTP API (`POST <TRANSLATOR_URL>/translate`, `q` as an array);
//   it has no way to take instructions, so they are not sent (docs/translations-and-insights.md says so);
// - `openai`: OpenAI-compatible chat completions (server/providers/chat-completions.ts), the
//   translation's instructions in the system prompt;
// - `copy`: copies the text unchanged. It is not a translation: runs with it are labelled as copies;
// - `memory`: looks texts up in a fixed translation memory (the demo workspace's own French, so the demo
//   shows a translated space without a translator); not a TRANSLATOR_KIND.
// A provider only ever receives plain text (titles, descriptions, the text nodes of pages: see
// document-text.ts), in batches.
import { loadConfig, type TranslatorSettings } from '../config.js';
import { fetchText, type OutboundLimits } from '../http/outbound.js';
import { chatCompletion, parseJsonAnswer, ProviderError, type ChatSettings } from '../providers/chat-completions.js';

export type TranslatorKind = 'copy' | 'libretranslate' | 'openai' | 'memory';

export interface TranslateRequest {
  from: string;
  to: string;
  /** The translation's instructions as plain text (tone, glossary, terms to keep); absent when none. */
  instructions?: string;
}

export interface Translator {
  readonly kind: TranslatorKind;
  /** Model name (openai) or server (libretranslate), for the run's report. */
  readonly label: string;
  /** Whether the provider translates (false for copy). */
  readonly translates: boolean;
  /** Whether the provider is given the translation's instructions (only a chat model can take them). */
  readonly takesInstructions: boolean;
  /** Whether texts go to an AI model: never for an organization whose AI features are off (`ai: false`). */
  readonly ai: boolean;
  /** The largest batch one call takes: texts and characters. */
  readonly batch: { texts: number; chars: number };
  /** The texts in `to`, in the same order; throws when the provider fails. */
  translate(texts: string[], request: TranslateRequest): Promise<string[]>;
}

const DEFAULT_LIMITS: OutboundLimits = { timeoutMs: 60_000, maxBytes: 10 * 1024 * 1024 };

/** Copies text unchanged: the provider when no translator is configured. */
export const copyTranslator: Translator = {
  kind: 'copy',
  label: 'copy',
  translates: false,
  takesInstructions: false,
  ai: false,
  batch: { texts: 10_000, chars: Number.MAX_SAFE_INTEGER },
  translate: async (texts) => [...texts],
};

function checkCount(out: unknown, expected: number, who: string): string[] {
  if (!Array.isArray(out) || out.length !== expected || !out.every((t) => typeof t === 'string')) {
    throw new ProviderError(`${who} answered without one translated text per input (${expected} sent)`);
  }
  return out as string[];
}

/** A LibreTranslate server, every call with a deadline and a size cap; TRANSLATOR_API_KEY is sent as `api_key`. */
export function libreTranslator(baseUrl: string, limits: OutboundLimits = DEFAULT_LIMITS, apiKey?: string): Translator {
  const endpoint = new URL('translate', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`).toString();
  return {
    kind: 'libretranslate',
    label: baseUrl,
    translates: true,
    takesInstructions: false,
    ai: false,
    batch: { texts: 50, chars: 20_000 },
    async translate(texts, { from, to }) {
      if (texts.length === 0) return [];
      const body = JSON.stringify({ q: texts, source: from, target: to, format: 'text', ...(apiKey && { api_key: apiKey }) });
      // TRANSLATOR_URL is the operator's own choice, often a LibreTranslate on the same host.
      const text = await fetchText(endpoint, limits, { method: 'POST', headers: { 'content-type': 'application/json' }, body, origin: 'operator' });
      let parsed: { translatedText?: unknown };
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new ProviderError(`${endpoint} answered with something other than JSON`);
      }
      return checkCount(parsed.translatedText, texts.length, endpoint);
    },
  };
}

/** Texts looked up in a translation memory, by target language then source text; a text it lacks fails the run, naming it. */
export function memoryTranslator(memory: Record<string, Record<string, string>>): Translator {
  return {
    kind: 'memory',
    label: 'translation memory',
    translates: true,
    takesInstructions: false,
    ai: false,
    batch: { texts: 10_000, chars: Number.MAX_SAFE_INTEGER },
    async translate(texts, { to }) {
      const missing = texts.filter((t) => memory[to]?.[t] === undefined);
      if (missing.length > 0) throw new ProviderError(`The translation memory has no "${to}" for: ${missing.map((t) => JSON.stringify(t)).join(', ')}`);
      return texts.map((t) => memory[to][t]);
    },
  };
}

/** The system prompt: what to do with the batch, the format of the answer, then the team's instructions. */
export function translationPrompt({ from, to, instructions }: TranslateRequest): string {
  return [
    `You translate documentation from the language with code "${from}" into the language with code "${to}".`,
    'You receive a JSON object {"texts": [...]}: short pieces of text cut out of Markdown pages (code, URLs and markup were taken out ' +
      'and stay as they are). Translate each piece on its own, keeping its meaning, its line breaks and any product names.',
    'Answer with only a JSON object {"translations": [...]} holding exactly one translated string per input string, in the same order.',
    ...(instructions ? ['Follow these instructions of the documentation team (tone, glossary, terms to keep):', instructions] : []),
  ].join('\n\n');
}

/** An OpenAI-compatible chat-completions model. */
export function openAITranslator(settings: ChatSettings): Translator {
  return {
    kind: 'openai',
    label: settings.model,
    translates: true,
    takesInstructions: true,
    ai: true,
    // Smaller batches than LibreTranslate: the answer must fit the model's output window.
    batch: { texts: 40, chars: 6_000 },
    async translate(texts, request) {
      if (texts.length === 0) return [];
      const content = await chatCompletion(settings, [
        { role: 'system', content: translationPrompt(request) },
        { role: 'user', content: JSON.stringify({ texts }) },
      ]);
      const answer = parseJsonAnswer(content);
      const list = Array.isArray(answer) ? answer : (answer as { translations?: unknown } | null)?.translations;
      return checkCount(list, texts.length, `The model ${settings.model}`);
    },
  };
}

/** The translator for the given settings. */
export function translatorFor(settings: TranslatorSettings): Translator {
  switch (settings.kind) {
    case 'libretranslate':
      return libreTranslator(settings.url, { ...DEFAULT_LIMITS, timeoutMs: settings.timeoutMs }, settings.apiKey);
    case 'openai':
      return openAITranslator({ baseUrl: settings.url, model: settings.model, apiKey: settings.apiKey, limits: { ...DEFAULT_LIMITS, timeoutMs: settings.timeoutMs } });
    case 'copy':
      return copyTranslator;
  }
}

/** The translator the environment configures (TRANSLATOR_KIND, TRANSLATOR_URL, …; checked at start by server/config.ts). */
export function configuredTranslator(env: Record<string, string | undefined> = process.env): Translator {
  return translatorFor(loadConfig(env).translator);
}
