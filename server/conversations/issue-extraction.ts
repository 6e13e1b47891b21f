// Finding the issues of a conversation: what the user asks or reports. A conversation can hold several
// (a support chat often goes "the export fails. Also, where do I change my avatar?"), each becoming its own
// issue, clustered on its own. Two extractors, chosen by INSIGHTS_KIND (server/config.ts):
// - `heuristic` (default), explained at `heuristicIssues` below;
// - `openai`: an OpenAI-compatible chat model (server/providers/chat-completions.ts) is asked for the list.
import { loadConfig, type InsightsSettings } from '../config.js';
import { chatCompletion, parseJsonAnswer, ProviderError, type ChatSettings } from '../providers/chat-completions.js';
import { tokens } from './similarity.js';

export interface ConversationText {
  subject: string | null;
  parts: { body: string }[];
}

export interface FoundIssue {
  title: string;
  summary: string;
  /** Set when a model extractor fell back to the heuristic for this issue (the model found none). */
  byHeuristic?: true;
}

/**
 * Why an issue was found by the heuristic rather than a model: the organization's AI features are off
 * (`ai: false`), the server has no model configured (INSIGHTS_KIND=heuristic), or the model found no issue
 * in the conversation and the heuristic's first one was kept.
 */
export type HeuristicReason = 'ai-disabled' | 'no-model-configured' | 'model-found-none';

export interface IssueExtractor {
  readonly kind: 'heuristic' | 'openai';
  /** The issues of one conversation, in the order they come up; at least one. */
  extract(conversation: ConversationText): Promise<FoundIssue[]>;
}

const TITLE_MAX = 120;
const SUMMARY_MAX = 500;
/** More issues than this in one conversation are folded into the last one (a pasted log is not 40 issues). */
const MAX_ISSUES = 10;

/** Cuts text to `max` characters at a word boundary, with an ellipsis when cut. */
export function cut(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const head = flat.slice(0, max - 1);
  return `${head.slice(0, Math.max(head.lastIndexOf(' '), max / 2))}…`;
}

/** The sentences of a text: split after `.`, `!`, `?` (and runs of them) followed by white space, and at line breaks. */
export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?…])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

const QUESTION_START = /^(how|where|what|why|when|which|who|whom|whose|can|could|is|are|was|were|does|do|did|should|would|will|may|might|am|has|have|any)\b/i;
// Words that report a problem.
const PROBLEM =
  /\b(error|errors|fail|fails|failed|failing|failure|broken|bug|crash(es|ed)?|wrong|missing|cannot|can't|can ?not|couldn't|unable|doesn't|don't|didn't|isn't|aren't|won't|(does|do|did|is|are|was|were|will|would) not|not (work|working|load|loading|show|showing|found|received|arriving|sent)|never|no longer|stuck|invalid|denied|expired|timed? ?out|429|500|404|403)\b/i;
// Openings that announce another topic.
const TRANSITION = /^((and|oh|ok|okay),?\s+)?(also|another( thing| question)?|additionally|besides|separately|plus|one more( thing| question)?|second(ly)?|third(ly)?|on another note|unrelated|p\.?s\.?|(\d+|[a-z])[.)])[\s,:]/i;
// A question leaning on the previous one ("Is it per token?", "And what about teams?").
const FOLLOW_UP = /^(\w+\s+){0,2}(it|this|that|they|them|these|those|there|its|what about|and)\b/i;
const PLEASANTRY = /^(hi|hello|hey|dear|thanks|thank you|thx|cheers|regards|best|good (morning|afternoon|evening))\b[^.!?]{0,30}[.!?,]?$/i;

/** "Also, where do I…?" → "Where do I…?" */
function withoutTransition(sentence: string): string {
  const match = TRANSITION.exec(sentence);
  if (!match) return sentence;
  const rest = sentence.slice(match[0].length).replace(/^[\s,:;-]+/, '');
  return rest === '' ? sentence : rest[0].toUpperCase() + rest.slice(1);
}

function isQuestion(sentence: string): boolean {
  return sentence.endsWith('?') || QUESTION_START.test(sentence);
}

function isReport(sentence: string): boolean {
  return PROBLEM.test(sentence);
}

/**
 * The heuristic. The user's messages are cut into sentences; greetings and thanks are dropped. A sentence
 * starts a new issue when it asks or reports something (a question: ends with `?` or opens with a
 * question word; a report: names a failure, an error, something missing or not working) and either
 * opens with a word announcing another topic ("Also", "Another thing", "PS", "2.") or is a question that
 * shares no content word (stems, stop words left out: similarity.ts) with the issue so far, has at
 * least two content words of its own, and does not lean on the previous one ("Is it…", "What about…").
 * Every other sentence is context for the issue it follows (or, before the first, the one it precedes).
 * Reports without such an opening stay with the question before them because users mostly describe one
 * problem in several sentences ("How do I reset my password? The email never comes."). A conversation in
 * which nothing asks or reports is one issue of all its text.
 */
export function heuristicIssues(conversation: ConversationText): FoundIssue[] {
  const all = conversation.parts.flatMap((p) => sentences(p.body)).filter((s) => !PLEASANTRY.test(s));
  const groups: { lead: string | undefined; sentences: string[]; stems: Set<string> }[] = [];
  let preamble: string[] = [];
  for (const sentence of all) {
    const stems = tokens(sentence);
    const asks = isQuestion(sentence) || isReport(sentence);
    const current = groups.at(-1);
    const startsNew =
      asks &&
      (current === undefined ||
        (TRANSITION.test(sentence) && groups.length < MAX_ISSUES) ||
        (isQuestion(sentence) &&
          groups.length < MAX_ISSUES &&
          stems.length >= 2 &&
          !FOLLOW_UP.test(sentence) &&
          !stems.some((s) => current.stems.has(s))));
    if (startsNew) {
      groups.push({ lead: sentence, sentences: [...preamble, sentence], stems: new Set([...preamble.flatMap((s) => tokens(s)), ...stems]) });
      preamble = [];
    } else if (current) {
      current.sentences.push(sentence);
      for (const s of stems) current.stems.add(s);
    } else {
      preamble.push(sentence);
    }
  }
  if (groups.length === 0) {
    const text = conversation.parts.map((p) => p.body).join(' ');
    const first = sentences(text)[0] ?? text;
    return [{ title: cut(conversation.subject ?? first, TITLE_MAX), summary: cut(text, SUMMARY_MAX) }];
  }
  return groups.map((g) => ({
    // One issue: the subject names it; several: each is named by the sentence that raised it, without its "Also,".
    title: cut(groups.length === 1 && conversation.subject ? conversation.subject : withoutTransition(g.lead!), TITLE_MAX),
    summary: cut(g.sentences.join(' '), SUMMARY_MAX),
  }));
}

export const heuristicExtractor: IssueExtractor = { kind: 'heuristic', extract: async (c) => heuristicIssues(c) };

/** The instructions to the model. */
export const INSIGHTS_PROMPT = [
  'You read a conversation between a user and a support team, and list the documentation issues in it: each distinct question the',
  'user asks or problem they report. Several messages about the same problem are one issue; unrelated questions are separate issues.',
  `Answer with only a JSON object {"issues": [{"title": "...", "summary": "..."}]}: at most ${MAX_ISSUES} issues, in the order they come up,`,
  `each title under ${TITLE_MAX} characters naming the issue, each summary under ${SUMMARY_MAX} characters saying what the user needed.`,
].join('\n');

/** An OpenAI-compatible chat model. */
export function openAIExtractor(settings: ChatSettings): IssueExtractor {
  return {
    kind: 'openai',
    async extract(conversation) {
      const transcript = JSON.stringify({ subject: conversation.subject ?? undefined, messages: conversation.parts.map((p) => p.body) });
      const answer = parseJsonAnswer(await chatCompletion(settings, [
        { role: 'system', content: INSIGHTS_PROMPT },
        { role: 'user', content: transcript },
      ]));
      const list = Array.isArray(answer) ? answer : (answer as { issues?: unknown } | null)?.issues;
      if (!Array.isArray(list)) throw new ProviderError(`The model ${settings.model} answered without an issues list`);
      const issues = list
        .filter((i): i is { title: string; summary?: unknown } => typeof i === 'object' && i !== null && typeof (i as { title?: unknown }).title === 'string')
        .filter((i) => i.title.trim() !== '')
        .slice(0, MAX_ISSUES)
        .map((i) => ({ title: cut(i.title, TITLE_MAX), summary: cut(typeof i.summary === 'string' && i.summary.trim() ? i.summary : i.title, SUMMARY_MAX) }));
      // A model that finds nothing still leaves the conversation one issue, as the heuristic does.
      return issues.length > 0 ? issues : heuristicIssues(conversation).slice(0, 1).map((i) => ({ ...i, byHeuristic: true as const }));
    },
  };
}

/** The extractor for the given settings. */
export function extractorFor(settings: InsightsSettings): IssueExtractor {
  if (settings.kind === 'heuristic') return heuristicExtractor;
  return openAIExtractor({ baseUrl: settings.url, model: settings.model, apiKey: settings.apiKey, limits: { timeoutMs: settings.timeoutMs, maxBytes: 1024 * 1024 } });
}

/** The extractor the environment configures (INSIGHTS_KIND, …; checked at start by server/config.ts). */
export function configuredExtractor(env: Record<string, string | undefined> = process.env): IssueExtractor {
  return extractorFor(loadConfig(env).insights);
}
