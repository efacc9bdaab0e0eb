import { ForbiddenError, NotFoundError, UnprocessableError } from '../kernel/errors.ts';
import { newId } from '../kernel/ids.ts';
import type { JsonRecord } from '../kernel/objects.ts';
import { code, declare, name, schemaOf, serverSet, text, writable } from '../protocol/model.ts';
import { organizationModel } from '../protocol/parts.ts';
import type { Answer, Question as QuestionBody } from '../schemas/generated/request-types.ts';
import { formatKyiv, type Micros } from '../kernel/time.ts';
import { checkWith, type CheckOf } from '../kernel/validation.ts';
import { childPlace, childrenOf, within, type Auction, type AuctionParts, type PeriodName } from './auction.ts';
import type { Child } from '../kernel/aggregate.ts';
import { listed } from './texts.ts';

/** Questions to the organizer (interface.md §2.6) and their answers. */
export const QUESTION = 'QUESTION';

/** A question (AC models/schema.py Question; GEB models/schemas.py Question, `questionOf` only `tender` there). */
export const questionModel = declare({
  source: 'AC models/schema.py Question; GEB models/schemas.py Question',
  fields: {
    id: serverSet,
    date: serverSet,
    dateAnswered: serverSet,
    title: name(1),
    description: text(),
    author: schemaOf(organizationModel),
    questionOf: { enum: ['tender', 'item', 'lot'] },
    relatedItem: code(1),
    answer: text(1),
  },
  ours: { dateAnswered: 'when the answer was given, shown as later openprocurement releases do' },
  required: ['title', 'author'],
});
/** What the asker writes (AC question `create` role). */
const ASKER_FIELDS = ['title', 'description', 'author', 'questionOf', 'relatedItem'] as const;
export const questionSchema = schemaOf(questionModel, { only: ASKER_FIELDS });
const checkQuestion: CheckOf<QuestionBody> = (data) => checkWith('question', questionSchema, data);

export const answerSchema = schemaOf(questionModel, { only: ['answer'], required: ['answer'] });
const checkAnswer: CheckOf<Answer> = (data) => checkWith('answer', answerSchema, data);

/** A question as stored and shown: the asker's fields (typed from the schema they are checked with) and the server's. */
export type Question = QuestionBody &
  Partial<Answer> & { id: string; questionOf: 'tender' | 'item' | 'lot'; date: string; dateAnswered?: string };

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

/**
 * A new question, asked by the broker key `asker` (kept beside it, never shown): about the auction (`tender`), or
 * (`questionOf` `item`, `lot`) about the one `relatedItem` names, which must be one of its items
 * (AC `validate_relatedItem`: "relatedItem should be one of items").
 */
export function newQuestion(
  data: JsonRecord,
  now: Micros,
  asker: string,
  itemIds: readonly string[] = [],
  choices: readonly string[] = ['tender'],
  id = newId(),
): Child<Question> {
  const fields = writable(questionModel, data, ASKER_FIELDS);
  checkQuestion(fields);
  const about = fields.questionOf ?? 'tender';
  if (!choices.includes(about))
    throw UnprocessableError.field('questionOf', `Value must be one of [${choices.map((c) => `'${c}'`).join(', ')}].`);
  if (about !== 'tender' && fields.relatedItem === undefined)
    throw UnprocessableError.field('relatedItem', 'This field is required.');
  if (about === 'item' && !itemIds.includes(fields.relatedItem!))
    throw UnprocessableError.field('relatedItem', 'relatedItem should be one of items');
  // dgfInsider has no lots (AC validate_not_available): a question about one names none of them.
  if (about === 'lot') throw UnprocessableError.field('relatedItem', 'relatedItem should be one of lots');
  const question: Question = { ...fields, id, questionOf: about, date: formatKyiv(now) };
  return { place: childPlace(QUESTION, question.id), entity: 'question', data: question, internal: { asker } };
}

// The children of kind QUESTION are the questions this file writes.
const questionChildren = (a: AuctionParts) => childrenOf<Question>(a.children, QUESTION);

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
export function answered(question: Child<Question>, data: JsonRecord, now: Micros): Child<Question> {
  const patch = writable(questionModel, data, ['answer']);
  checkAnswer(patch);
  return { ...question, data: { ...question.data, ...patch, dateAnswered: formatKyiv(now) } };
}
