export { extractDocumentMetadata, type ExtractedMetadata } from './extract';
export { detectRelations, type DetectedRelation } from './relations';
export { normaliseDocNumber } from './doc-number';
