/**
 * The mock's stand-in for AI drafting (`normalize`, `clarify`, `revise`, `import`): deterministic
 * rules on the wording, no model and no web. Drafts pass the question type rules, so they can be
 * sent to `POST /questions` as they are.
 * @module
 */
import { MAX_TITLE_LENGTH } from '../../api/limits.js';
import type { QuestionDefinition } from './question.js';

/** What the normalize operations answer. */
export type DraftResult =
  | { status: 'ok'; question: QuestionDefinition }
  | { status: 'unsupported'; suggestedReframe: string }
  | { status: 'needs_clarification'; clarification: string };

/** A time no one can check: `normalize` asks when, and `clarify` takes the answer. */
const VAGUE_TIME = /\b(soon|eventually|someday|one day)\b/i;

const TEN_YEARS_S = 10 * 365 * 24 * 60 * 60;

/** `"will it rain"` → `"Will it rain?"`, within the title limit. */
export function asQuestionTitle(text: string): string {
  const collapsed = text.trim().replace(/\s+/g, ' ');
  // Trailing punctuation cut by a loop: a pattern anchored at the end would be quadratic on long text.
  let end = collapsed.length;
  while (end > 0 && '?.! '.includes(collapsed[end - 1]!)) end--;
  const t = collapsed.slice(0, Math.min(end, MAX_TITLE_LENGTH - 1));
  return `${t.charAt(0).toUpperCase()}${t.slice(1)}?`;
}

/**
 * The deadline a draft resolves by: the end of the latest year the text names from this year on
 * (`in 2027` → `31 December 2027`), else the end of next year.
 */
function deadline(text: string, nowMs: number): string {
  const thisYear = new Date(nowMs).getUTCFullYear();
  const named = (text.match(/\b2\d{3}\b/g) ?? []).map(Number).filter((year) => year >= thisYear);
  return `31 December ${named.length ? Math.max(...named) : thisYear + 1}`;
}

/** What a clarified draft resolves by: the answer says it (folded into the criteria after it). */
const AS_CLARIFIED = 'the time the clarification gives';

/**
 * Drafts a question from a rough title: "How many/How much" → numeric, "When" → date,
 * "Which … or …" → multiple choice, anything else → binary. Fewer than 3 words is unsupported; a
 * vague time ("soon", "eventually", "someday", "one day") needs a clarification, unless `clarified`.
 */
export function draftQuestion(rough: string, nowMs: number, clarified = false): DraftResult {
  const by = clarified ? AS_CLARIFIED : deadline(rough, nowMs);
  const words = rough.trim().split(/\s+/).filter(Boolean);
  if (words.length < 3) {
    return {
      status: 'unsupported',
      suggestedReframe: `Will ${rough.trim() || 'the event'} happen by ${deadline(rough, nowMs)}? Name an outcome that can be checked and a date.`,
    };
  }
  const vague = clarified ? null : VAGUE_TIME.exec(rough);
  if (vague) {
    return { status: 'needs_clarification', clarification: `"${vague[0]}" cannot be checked: by what date should it count? Answer through normalize/clarify, with this title.` };
  }
  const title = asQuestionTitle(rough);
  const base = { title, description: `Drafted from: "${rough.trim()}".`, finePrint: '' };
  if (/^how (many|much)\b/i.test(title)) {
    return {
      status: 'ok',
      question: {
        ...base,
        type: 'numeric',
        lowerBound: 0,
        upperBound: 1000,
        openLowerBound: false,
        openUpperBound: true,
        scaleType: 'linear',
        resolutionCriteria: `Resolves to the value an authoritative public source reports for ${by}.`,
      },
    };
  }
  if (/^when\b/i.test(title)) {
    const from = Math.floor(nowMs / 1000);
    return {
      status: 'ok',
      question: {
        ...base,
        type: 'date',
        lowerBound: from,
        upperBound: from + TEN_YEARS_S,
        openLowerBound: false,
        openUpperBound: true,
        resolutionCriteria: 'Resolves to the date (UTC) on which credible public reporting first confirms the event.',
      },
    };
  }
  const options = /^which\b/i.test(title) && / or /i.test(title) ? optionsOf(title) : [];
  if (options.length >= 2) {
    return {
      status: 'ok',
      question: {
        ...base,
        type: 'multiple_choice',
        options,
        resolutionCriteria: `Resolves to the option that credible public reporting confirms by ${by}.`,
      },
    };
  }
  return {
    status: 'ok',
    question: {
      ...base,
      type: 'binary',
      resolutionCriteria: `Resolves YES if "${title}" is confirmed by credible public reporting by ${clarified ? by : `${by} (UTC)`}; otherwise NO.`,
    },
  };
}

/**
 * Options of "Which X: A, B or C?" / "Which X, A or B?" / "Which team wins Arsenal or Chelsea?":
 * the list after the colon or first comma, else the word before each "or".
 */
function optionsOf(title: string): string[] {
  const body = title.slice(0, -1);
  const cut = body.search(/[:,]/);
  const list = cut >= 0 ? body.slice(cut + 1) : body;
  const parts = list.split(/\s*,\s*|\s+or\s+/i).map((p) => p.trim()).filter(Boolean);
  if (cut < 0 && parts.length > 0) parts[0] = parts[0]!.split(' ').at(-1)!;
  return [...new Set(parts)];
}

/** Folds a clarification into a draft's resolution criteria. */
export function withClarification(draft: DraftResult, answer: string): DraftResult {
  if (draft.status !== 'ok') return draft;
  const criteria = `${draft.question.resolutionCriteria ?? ''} Clarification: ${answer.trim()}`.trim();
  return { status: 'ok', question: { ...draft.question, resolutionCriteria: criteria } };
}

/** Applies guidance to a draft's description. */
export function withGuidance(question: QuestionDefinition, guidance: string): QuestionDefinition {
  const description = [question.description, `Revised with guidance: ${guidance.trim()}`].filter(Boolean).join('\n\n');
  return { ...question, description };
}

/** A binary question titled from a market link's last path segment (`will-x-happen` → `Will x happen?`). */
export function importedQuestion(reference: URL): QuestionDefinition | undefined {
  const segment = reference.pathname.split('/').filter(Boolean).at(-1);
  if (!segment) return undefined;
  let words: string;
  try {
    words = decodeURIComponent(segment).replace(/[-_+]+/g, ' ');
  } catch {
    return undefined;
  }
  if (!/[a-z]/i.test(words)) return undefined;
  return {
    type: 'binary',
    title: asQuestionTitle(words),
    description: `Imported from ${reference.href}`,
    resolutionCriteria: `Resolves as the market question at ${reference.href} resolves.`,
  };
}
