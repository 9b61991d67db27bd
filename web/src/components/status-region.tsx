import { Fragment } from 'preact';
import { now, type Localized } from '../i18n/bind';

const ids = new WeakMap<Localized, number>();
let made = 0;
const idOf = (text: Localized) => {
  let id = ids.get(text);
  if (id === undefined) ids.set(text, (id = made += 1));
  return id;
};

/**
 * A status region for screen readers (hidden from sight) saying what just happened. Each
 * announcement gets a text node of its own, so that the same words said twice ("2 files
 * added.") are read out twice.
 */
export function StatusRegion({ text }: { text: Localized | undefined }) {
  return (
    <p class="visually-hidden" role="status">
      {text && <Fragment key={idOf(text)}>{now(text)}</Fragment>}
    </p>
  );
}
