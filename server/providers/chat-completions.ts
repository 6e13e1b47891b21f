// A client of the OpenAI-compatible chat-completions protocol (`POST <base>/chat/completions`), shared by
// the translator (TRANSLATOR_KIND=openai) and the insights extraction (INSIGHTS_KIND=openai). The base is
// the API root of any compatible server: OpenAI itself, or a local Ollama (`http://127.0.0.1:11434/v1`),
// llama.cpp server or vLLM. Calls go through the outbound guard with a deadline and a size cap; the base
// URL is the operator's own setting, so it may be a private address.
import { outboundRequest, type OutboundLimits } from '../http/outbound.js';

export interface ChatSettings {
  /** API base, e.g. `https://api.openai.com/v1`; `/chat/completions` is added. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  limits: OutboundLimits;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** The provider answered, but not with what was asked (an error status, no choice, unreadable JSON). */
export class ProviderError extends Error {}

/** The endpoint of a base URL, with or without a trailing slash. */
export function chatCompletionsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
}

/** What an error answer says (OpenAI's `{ error: { message } }`, else the start of the body). */
function errorMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string };
    const message = typeof parsed.error === 'string' ? parsed.error : parsed.error?.message;
    if (typeof message === 'string') return message.slice(0, 300);
  } catch {
    // Not JSON: the raw start below.
  }
  return body.slice(0, 300);
}

/** The text of the first choice of one completion (temperature 0: the same input gives the same answer where the server allows). */
export async function chatCompletion(settings: ChatSettings, messages: ChatMessage[]): Promise<string> {
  const url = chatCompletionsUrl(settings.baseUrl);
  const res = await outboundRequest(url, settings.limits, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(settings.apiKey && { authorization: `Bearer ${settings.apiKey}` }),
    },
    body: JSON.stringify({ model: settings.model, messages, temperature: 0, stream: false }),
    origin: 'operator',
  });
  const text = res.body.toString('utf8');
  if (res.status < 200 || res.status > 299) throw new ProviderError(`${url} answered ${res.status}: ${errorMessage(text)}`);
  let parsed: { choices?: { message?: { content?: unknown } }[] };
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ProviderError(`${url} answered with something other than JSON`);
  }
  const content = parsed.choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw new ProviderError(`${url} answered without a message in choices[0]`);
  return content;
}

/**
 * The JSON value in a model's answer: models asked for JSON sometimes wrap it in a ```json fence or add a
 * sentence around it, so the outermost object or array is taken.
 */
export function parseJsonAnswer(content: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(content);
  const text = (fenced ? fenced[1] : content).trim();
  try {
    return JSON.parse(text);
  } catch {
    const start = text.search(/[[{]/);
    const end = Math.max(text.lastIndexOf('}'), text.lastIndexOf(']'));
    if (start >= 0 && end > start) {
      try {
        return JSON.parse(text.slice(start, end + 1));
      } catch {
        // Reported below.
      }
    }
    throw new ProviderError('The model did not answer with JSON');
  }
}
