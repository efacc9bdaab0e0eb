/** JSON Schemas of an Organization and its parts (interface.md §2.2), declared from the original models in protocol/parts.ts. */
export {
  addressSchema,
  contactPointSchema,
  identifierSchema,
  organizationSchema,
} from '../protocol/parts.ts';
