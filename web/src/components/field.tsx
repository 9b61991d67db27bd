import type { ComponentChildren } from 'preact';
import { useUniqueId } from './unique-id';

export interface FieldProps {
  label: ComponentChildren;
  /** Words under the control, which it names as its description (`aria-describedby`). */
  hint?: ComponentChildren;
  /** A layout class beside `field` (`role`: only as wide as needed). */
  class?: string;
  /** The control, given the ids to label and describe it with. */
  children: (ids: { id: string; hintId: string | undefined }) => ComponentChildren;
}

/** A labelled form control: the label, the control, and the hint under it. */
export function Field(props: FieldProps) {
  const id = useUniqueId('field');
  const hintId = props.hint === undefined ? undefined : `${id}-hint`;
  return (
    <div class={props.class ? `field ${props.class}` : 'field'}>
      <label for={id}>{props.label}</label>
      {props.children({ id, hintId })}
      {props.hint !== undefined && (
        <p class="hint" id={hintId}>
          {props.hint}
        </p>
      )}
    </div>
  );
}
