import { render, screen } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { Field } from './field';

describe('a field', () => {
  it('labels its control, and describes it with its hint', () => {
    render(
      <Field label="Comment (optional)" hint="For example: what was missing.">
        {({ id, hintId }) => <textarea id={id} aria-describedby={hintId} />}
      </Field>,
    );
    const control = screen.getByRole('textbox', { name: 'Comment (optional)' });
    expect(control.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(control.getAttribute('aria-describedby')!)?.textContent).toBe(
      'For example: what was missing.',
    );
  });

  it('takes a layout class beside its own', () => {
    render(
      <Field label="Role" class="role">
        {({ id }) => <select id={id} />}
      </Field>,
    );
    expect(screen.getByRole('combobox', { name: 'Role' }).parentElement?.className).toBe(
      'field role',
    );
  });
});
