import { z } from 'zod';
import { enumOf } from '../service/enum';

// What a document says of itself (an official document's fixed parts: title, document number,
// issuing bodies, dates, type), how documents relate (amends, repeals, replaces, implements),
// whether one is still in force, and the filters a search takes on them. Shared by the files'
// answers, search results, chat sources and the chat and OpenAI-compatible requests.

/** A calendar date, `YYYY-MM-DD` (a document's dates have no time of day). */
export const IsoDate = z.iso.date();

/** Who set a field: extracted from the document at ingest, or set by a person. */
export const FieldOrigin = enumOf(['extracted', 'person']);

/** The fields of {@link DocumentMetadata} a person may correct, and the origin map's keys. */
export const METADATA_FIELDS = [
  'title',
  'doc_number',
  'issuers',
  'issued_on',
  'effective_on',
  'expires_on',
  'doc_type',
] as const;
export type MetadataField = (typeof METADATA_FIELDS)[number];

export const DocumentMetadata = z.object({
  /** 关于印发《…》的通知, as printed (one line). */
  title: z.string().nullable(),
  /** 文号, as printed with its brackets normalised to 〔〕: `川办规〔2025〕6号`. */
  doc_number: z.string().nullable(),
  /** 发文机关, in the order printed; empty when none was found. */
  issuers: z.array(z.string()),
  /** 成文/发布日期. */
  issued_on: IsoDate.nullable(),
  /** 施行日期, where the document states one. */
  effective_on: IsoDate.nullable(),
  /** 有效期至, where the document states one. */
  expires_on: IsoDate.nullable(),
  /** 通知, 意见, 办法, 规定, 决定, 方案, 细则, 条例, …; `policy`, `regulation`, … for English. */
  doc_type: z.string().nullable(),
  /** For each field that has a value: extracted, or set by a person. */
  origin: z.record(z.string(), FieldOrigin),
});

/** A person's correction: only the fields sent change (null clears one). */
export const MetadataCorrection = z.object({
  title: z.string().trim().min(1).max(500).nullable().optional(),
  doc_number: z.string().trim().min(1).max(100).nullable().optional(),
  issuers: z.array(z.string().trim().min(1).max(200)).max(20).optional(),
  issued_on: IsoDate.nullable().optional(),
  effective_on: IsoDate.nullable().optional(),
  expires_on: IsoDate.nullable().optional(),
  doc_type: z.string().trim().min(1).max(50).nullable().optional(),
});

/** How one document stands to another, said by the document that does it. */
export const RelationKind = z.enum(['amends', 'repeals', 'replaces', 'implements']);

/**
 * One relation as a file sees it: `amends`/`repeals`/`replaces`/`implements` when this file
 * does it to the other, `amended_by`/`repealed_by`/`replaced_by`/`implemented_by` when the
 * other does it to this one. The other is a file of the knowledge base (`file_id`) or only
 * named by the text (`doc_number`, `title`: a document not uploaded).
 */
export const FileRelation = z.object({
  id: z.number().int(),
  relation: enumOf([
    'amends',
    'repeals',
    'replaces',
    'implements',
    'amended_by',
    'repealed_by',
    'replaced_by',
    'implemented_by',
  ]),
  file_id: z.uuid().nullable(),
  file_name: z.string().nullable(),
  doc_number: z.string().nullable(),
  title: z.string().nullable(),
  origin: FieldOrigin,
});

/**
 * Whether a document still holds: `repealed` (repealed or replaced by another), `amended`
 * (amended by another; the rest holds), `expired` (past its expiry date), else `in_force`.
 */
export const ValidityStatus = enumOf(['in_force', 'amended', 'repealed', 'expired']);

export const Validity = z.object({
  status: ValidityStatus,
  relations: z.array(FileRelation),
});

/**
 * Filters on what documents say of themselves, for search and chat: all that are given must
 * hold (an issuer matches any of a file's issuers, by containment: `杭州` matches
 * `杭州市人民政府`). Dates are inclusive.
 */
export const DocumentFilters = z.object({
  issuer: z.string().trim().min(1).max(200).optional(),
  doc_number: z.string().trim().min(1).max(100).optional(),
  doc_type: z.string().trim().min(1).max(50).optional(),
  issued_from: IsoDate.optional(),
  issued_to: IsoDate.optional(),
  effective_from: IsoDate.optional(),
  effective_to: IsoDate.optional(),
  /** Only documents in force (or amended): not repealed, replaced or expired. */
  in_force: z.boolean().optional(),
});
