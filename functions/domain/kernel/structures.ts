/** JSON Schemas of the shared structures of interface.md §2.2, declared from the original models in protocol/parts.ts. */
export { multilingual } from '../protocol/model.ts';
export {
  addressSchema,
  classificationSchema,
  itemClassificationSchema,
  locationSchema,
  periodSchema,
  unitSchema,
  valueSchema,
} from '../protocol/parts.ts';
