import './zod-setup';
import { startApp } from './app';
import { applyLocale } from './i18n/locale';

applyLocale();

const root = document.getElementById('app');
if (root) startApp(root);
