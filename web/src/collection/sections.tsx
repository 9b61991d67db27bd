import type { ComponentType } from 'preact';
import type { Collection } from '../api/services';
import type { Messages } from '../i18n/messages';
import type { CollectionSection } from '../main/route';
import { mayAddFiles } from '../collection-access';
import { GapsSection } from '../gaps/gaps-page';
import { RetrievalSection } from '../retrieval/retrieval-page';
import { OfficialSection } from '../official/official-page';

/** What a collection screen beside members and settings is given. */
export interface SectionProps {
  collection: Collection;
}

interface SectionView {
  /** The tab's text. */
  label(m: Messages): string;
  view: ComponentType<SectionProps>;
  /** Whether the caller's role in the collection shows the tab (the service decides anyway). */
  shown(collection: Collection): boolean;
}

/**
 * The collection's screens beside its members and settings (`#/collection/<id>/<section>`), in
 * tab order: each screen adds itself here.
 */
export const SECTION_VIEWS: Partial<Record<Exclude<CollectionSection, 'members'>, SectionView>> = {
  retrieval: { label: (m) => m.retrieval.section, view: RetrievalSection, shown: () => true },
  // Official answers (标准口径): every reader sees them; owners write them.
  official: { label: (m) => m.official.section, view: OfficialSection, shown: () => true },
  // The gap report: its editors and owners only (the service answers a viewer 403).
  gaps: { label: (m) => m.gaps.section, view: GapsSection, shown: mayAddFiles },
};
