import type { Role } from '#domain/kernel/principal.ts';
import type { ValidatorSource } from '#domain/kernel/validation.ts';
import type { DocumentPorts } from '#runtime/documents.ts';

/**
 * What the HTTP kit needs of a route at request time: its rules, taken from functions/routes.ts (`routeRule`) and handed
 * in from outside, so no Lambda bundle carries the route table. lib/build.ts gives each Lambda's entry the rules of
 * the routes it serves (and, on routes that touch documents, the document ports); the local gateway hands the sources
 * the whole table once.
 */
export interface RouteRule {
  /** API Gateway's route key (`GET /api/0.1/lots/{lotId}`, or `$default`). */
  key: string;
  /** Who may call (routes.ts `auth`): `read` admits callers without a key unless the operator requires one. */
  auth: 'any' | 'read' | 'public' | readonly Role[];
  contentType?: string;
  location?: 'url' | 'path';
  /** The auction or asset type the route serves (routes.ts `type`). */
  type?: string;
  /** `binary`: raw bytes; `optional`: no body, or an empty one, is `{"data": {}}` (routes.ts `body`). */
  body?: 'binary' | 'optional';
  /** What the route needs of the document service (routes.ts `docserviceAccess`). */
  documents?: 'files' | 'keys';
}

let served: Map<string, RouteRule> | undefined;
let documentPorts: (() => Promise<DocumentPorts>) | undefined;
let validatorSources: Readonly<Record<string, ValidatorSource>> | undefined;

/**
 * Registers the rules of the routes this process serves (routeRuleOf reads them at each request), and the document
 * ports when one of them touches documents (a function, so a route that does not never loads the store's file
 * modules). A built Lambda also registers the body validators its code checks with, per type its routes serve
 * (`type`, `''` for none: lib/build.ts ships those beside it); without them (the sources), the kit loads all.
 */
export function registerRoutes(
  rules: readonly RouteRule[],
  documents?: () => Promise<DocumentPorts>,
  validators?: Readonly<Record<string, ValidatorSource>>,
): void {
  served = new Map(rules.map((r) => [r.key, r]));
  documentPorts = documents;
  validatorSources = validators;
}

/**
 * The body validators a route's Lambda was built with, for the route's type (undefined: all, as from the sources). A
 * built Lambda without a set for the route's type is a packaging mistake, and fails loudly.
 */
export function servedValidators(rule: RouteRule): ValidatorSource | undefined {
  if (!validatorSources) return undefined;
  const source = validatorSources[rule.type ?? ''];
  if (!source) throw new Error(`Route "${rule.key}" was built without body validators for "${rule.type ?? ''}"`);
  return source;
}

/**
 * The rule of the route API Gateway invoked. A handler loaded without rules, or invoked for a route it was not built
 * for, is a packaging mistake: it fails loudly rather than serving without the route's access rule.
 */
export function routeRuleOf(key: string): RouteRule {
  if (!served) throw new Error('No route rules: this handler was loaded without registerRoutes() (lib/build.ts entry)');
  const rule = served.get(key);
  if (!rule) throw new Error(`No route rule for "${key}": this Lambda serves ${[...served.keys()].join(', ')}`);
  return rule;
}

/** The document ports, on routes that touch documents. */
export function documentPortsOf(rule: RouteRule): Promise<DocumentPorts> {
  if (!documentPorts) throw new Error(`Route "${rule.key}" touches documents but was served without document ports`);
  return documentPorts();
}
