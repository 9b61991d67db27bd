import './zod-setup';
import { render } from 'preact';
import { App } from './app';
import { applyLocale } from './i18n/locale';

applyLocale();

const root = document.getElementById('app');
if (root) {
  // The page's placeholder (shown until this script runs) goes: render() would keep it beside the app.
  root.replaceChildren();
  render(<App />, root);
}
