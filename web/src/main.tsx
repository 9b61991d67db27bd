import './zod-setup';
import { render } from 'preact';
import { App } from './app';
import { applyLocale } from './i18n/locale';

applyLocale();

const root = document.getElementById('app');
if (root) render(<App />, root);
