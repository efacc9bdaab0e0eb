import type { AssetsReadContext } from '#domain/assets/reads.ts';
import { assetTypeDescriptor } from '#domain/assets/types/catalog.ts';
import { readerHidingDrafts } from '#domain/kernel/principal.ts';
import type { HttpRequest } from '#http-kit/http-handler.ts';
import { assetReader } from '#store/asset-repository.ts';

/**
 * What the assets read routes need: the repository and the served type's descriptor. Apart from context.ts, whose
 * type definitions (schemas, validators) and organization directory the reads never use. A draft the caller may
 * not read is not there (as an unknown id).
 */
export const assetsReadContext = (req: HttpRequest): AssetsReadContext => ({
  assets: readerHidingDrafts(assetReader, req.principal),
  type: assetTypeDescriptor(req.type),
});
