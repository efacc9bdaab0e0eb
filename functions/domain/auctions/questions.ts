import type { FromSchema } from 'json-schema-to-ts';
import { ForbiddenError, NotFoundError } from '../kernel/errors.ts';
import { newId } from '../kernel/ids.ts';
import { omit, pick, type JsonObject } from '../kernel/objects.ts';
import { organizationSchema } from '../kernel/organization.ts';
import { formatKyiv, type Micros } from '../kernel/time.ts';
import { checkWith, type CheckOf } from '../kernel/validation.ts';
import { childPlace, childrenOf, within, type Auction, type AuctionParts, type PeriodName } from './auction.ts';
import type { Child } from '../kernel/aggregate.ts';
import { listed } from './texts.ts';

/** Questions to the organizer (interface.md §2.6) and their answers. */
export const QUESTION = 'QUESTION';

export const questionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'author'],
  properties: {
    title: { type: 'string', minLength: 1 },
    description: { type: 'string' },
    author: { ...organizationSchema, required: ['name', 'identifier', 'address', 'contactPoint'] },
    questionOf: { enum: ['tender'] },
  },
} as const;
const checkQuestion: CheckOf<FromSchema<typeof questionSchema>> = (data) => checkWith('question', questionSchema, data);

export const answerSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['answer'],
  properties: { answer: { type: 'string', minLength: 1 } },
} as const;
const checkAnswer: CheckOf<FromSchema<typeof answerSchema>> = (data) => checkWith('answer', answerSchema, data);

/** A question as stored and shown: the asker's fields (typed from the schema they are checked with) and the server's. */
export type Question = FromSchema<typeof questionSchema> &
  Partial<FromSchema<typeof answerSchema>> & { id: string; questionOf: 'tender'; date: string; dateAnswered?: string };

export function assertQuestionsOpen(
  auction: Auction,
  statuses: readonly string[],
  period: PeriodName | undefined,
  now: Micros,
  verb: 'add' | 'update',
  refusal: (auction: Auction, verb: 'add' | 'update') => string,
): void {
  if (!statuses.includes(auction.status)) throw new ForbiddenError(refusal(auction, verb));
  if (period !== undefined && !within(auction, period, now))
    throw new ForbiddenError(`Can ${verb} question only in ${period}`);
}

/** The refusal that names the statuses admitting questions (GEB: "Can add question only in (...)"). */
export const questionsOnlyIn =
  (statuses: readonly string[]) =>
  (_auction: Auction, verb: 'add' | 'update'): string =>
    `Can ${verb} question only in ${listed(statuses)}`;

export function newQuestion(data: JsonObject, now: Micros): Child<Question> {
  const fields = omit(data, ['id', 'date', 'answer', 'dateAnswered']);
  checkQuestion(fields);
  const question: Question = { ...fields, id: newId(), questionOf: 'tender', date: formatKyiv(now) };
  return { place: childPlace(QUESTION, question.id), entity: 'question', data: question };
}

// The children of kind QUESTION are the questions this file writes.
const questionChildren = (a: AuctionParts) => childrenOf(a.children, QUESTION) as Child<Question>[];

/**
 * A question as everyone reads it: without its `author`. Only the answer to the one who asked shows the author; the
 * originals' views hid it (insider `list-question.http`, geb `active_tendering_answer_question.http`).
 */
export const publicQuestion = ({ author: _hidden, ...question }: Question): PublicQuestion => question;

export type PublicQuestion = Omit<Question, 'author'>;

export const questionsOf = (a: AuctionParts) => questionChildren(a).map((c) => publicQuestion(c.data));

export function findQuestion(a: AuctionParts, id: string): Child<Question> {
  const found = questionChildren(a).find((c) => c.data.id === id);
  if (!found) throw new NotFoundError('question_id');
  return found;
}

/** The organizer's answer: only `answer` is taken, the rest of the body is dropped. */
export function answered(question: Child<Question>, data: JsonObject, now: Micros): Child<Question> {
  const patch = pick(data, ['answer']);
  checkAnswer(patch);
  return { ...question, data: { ...question.data, ...patch, dateAnswered: formatKyiv(now) } };
}
